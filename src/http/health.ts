import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ReadDb } from '../db/read-db.js';
import { writesBlocked } from '../db/write-health.js';

/** Health checks live outside the API roots and the site's paths, where no Ghost route can be. */
export const HEALTH_PREFIX = '/_quire';

const READY_CHECK_TIMEOUT_MS = 2000;

export interface Readiness {
  /** False once shutdown began: the load balancer should stop sending requests here. */
  accepting: boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /_quire/live`: the process answers (restart it when this fails). `GET /_quire/ready`: it can serve
 * requests now: the database answers, the last write did not fail for a full disk or a read-only database
 * (db/write-health.ts), and shutdown has not begun; a 503 names the failing part. Neither
 * needs credentials nor says anything secret.
 */
export function healthRoutes(app: FastifyInstance, db: ReadDb, readiness: Readiness) {
  app.get(`${HEALTH_PREFIX}/live`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });
  app.get(`${HEALTH_PREFIX}/ready`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const checks: Record<string, string> = {};
    checks.server = readiness.accepting ? 'ok' : 'shutting down';
    try {
      await withTimeout(sql`select 1`.execute(db), READY_CHECK_TIMEOUT_MS);
      // Answering reads is not enough: a full disk or a read-only database fails every write.
      const blocked = writesBlocked();
      checks.database = blocked ? `failing: cannot write (${blocked})` : 'ok';
    } catch (err) {
      checks.database = `failing: ${(err as Error).message.split('\n')[0]}`;
    }
    const ok = Object.values(checks).every((value) => value === 'ok');
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });
}
