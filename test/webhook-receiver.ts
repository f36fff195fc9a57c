import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createHmac } from 'node:crypto';

/** One webhook request as the receiver got it. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

/** What the receiver answers a request on `path`: a status, a redirect, a status after a delay (a slow receiver), or `hang` (never answer). */
export type Answer = number | 'hang' | { status: number; location: string } | { status: number; delayMs: number };

/**
 * A real HTTP receiver on loopback (port 0) for webhook tests. Each path answers by its script: a list of
 * answers used in turn (the last one repeats), 200 by default.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly #scripts = new Map<string, Answer[]>();
  readonly #hanging = new Set<ServerResponse>();
  #server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = request.url ?? '/';
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // Kept as text.
        }
        this.received.push({ path, headers: request.headers, body, json });
        const script = this.#scripts.get(path) ?? [200];
        const answer = script.length > 1 ? script.shift()! : script[0]!;
        if (answer === 'hang') {
          this.#hanging.add(response);
          response.on('close', () => this.#hanging.delete(response));
          return;
        }
        if (typeof answer === 'object' && 'delayMs' in answer) {
          setTimeout(() => {
            if (!response.destroyed) response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(`answer ${answer.status}`);
          }, answer.delayMs);
          return;
        }
        if (typeof answer === 'object') {
          response.writeHead(answer.status, { location: answer.location }).end();
          return;
        }
        response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** Answers for the next requests on `path`, in turn; the last one repeats. */
  script(path: string, answers: Answer[]): void {
    this.#scripts.set(path, [...answers]);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Requests held open by `hang` answers right now. */
  get hanging(): number {
    return this.#hanging.size;
  }

  async stop(): Promise<void> {
    for (const response of this.#hanging) response.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** Checks `X-Ghost-Signature` as a receiver would: `sha256=<hmac(secret, body + t)>, t=<ms>`. */
export function verifySignature(received: Received, secret: string): boolean {
  const header = received.headers['x-ghost-signature'];
  const match = typeof header === 'string' ? /^sha256=([0-9a-f]{64}), t=(\d+)$/.exec(header) : null;
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${received.body}${match[2]}`).digest('hex');
  return expected === match[1];
}

/** Waits until `check` holds (polling), failing after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets time pass (to show that nothing more arrives). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
