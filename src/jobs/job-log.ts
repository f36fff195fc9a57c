import type { Attempt } from './webhook-delivery.js';

/**
 * Where background work is logged: the app's logger (pino), so its lines have the request lines' shape and
 * destination. Each piece of work writes one line per step a person may ask about, labelled like a request's:
 * `job` (what kind of work: `webhook`, `publish`, `members-import`, `db-import`), `job_id` (the row: a delivery,
 * a post, a job), `ms` (how long the step took), and `status` only where it is an HTTP status, as in a
 * request's line.
 */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A webhook target as logged: scheme, host and port only (a path may be the secret, as Slack's are). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

/** One line per delivery attempt: what was sent where, the answer, how long it took, and when the next try is. */
export function logAttempt(log: JobLog, tried: Attempt): void {
  const { row, result, outcome, status, retryAt } = tried;
  const line = {
    job: 'webhook',
    job_id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    method: 'POST',
    target: originOf(row.target_url),
    status: result.kind === 'answered' ? result.status : null,
    ms: result.latencyMs,
    attempt: row.attempts + 1,
    outcome: outcome.kind === 'gone' ? 'gone' : status,
    ...('error' in outcome ? { error: outcome.error } : {}),
    ...(retryAt !== null ? { next_retry_at: new Date(retryAt).toISOString() } : {}),
  };
  if (outcome.kind === 'delivered') log.info(line, 'webhook delivered');
  else if (outcome.kind === 'gone') log.warn(line, 'webhook target answered 410 Gone: the webhook is deleted');
  else if (status === 'pending') log.warn(line, 'webhook delivery failed; it is tried again');
  else log.warn(line, 'webhook delivery failed for good');
}

/** Most numbers a job's summary line holds. */
const MAX_FIGURES = 20;

/**
 * The figures of a job's result or progress for its log line: numbers, and the lengths of lists, under dotted
 * keys (`stats.imported`, `problems`), at most three levels down. Never the strings: results hold addresses
 * and names, which do not belong in a log.
 */
export function figuresOf(value: unknown): Record<string, number | string> {
  const figures: Record<string, number | string> = {};
  const walk = (node: unknown, prefix: string, depth: number) => {
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (Object.keys(figures).length >= MAX_FIGURES) return;
      const name = prefix ? `${prefix}.${key}` : key;
      if (typeof child === 'number') figures[name] = child;
      else if (Array.isArray(child)) figures[name] = child.length;
      else if (name === 'stage' && typeof child === 'string') figures[name] = child;
      else if (child && typeof child === 'object' && depth < 3) walk(child, name, depth + 1);
    }
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) walk(value, '', 1);
  return figures;
}
