import type { Transaction } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';
import { ConstraintError, translateDbError } from './errors.js';
import { noteWriteFailure, noteWriteSuccess } from './write-health.js';

const ATTEMPTS = 10;
// PostgreSQL serialization failure / deadlock, MySQL deadlock / lock wait timeout.
const TRANSIENT_CODES = new Set(['40001', '40P01', 'ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

function isRetryable(err: unknown): boolean {
  if (err instanceof ConstraintError) return err.kind === 'unique';
  return TRANSIENT_CODES.has((err as { code?: string } | null)?.code ?? '');
}

/**
 * A write transaction that is run again when it lost a race: two requests picking the same free slug (or
 * creating the same new tag) at once, or a deadlock. Each attempt starts from scratch, so the loser finds
 * the winner's row and picks `-2`. SQLite serialises writers and never needs it; pooled engines do.
 */
export async function retryingTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.transaction().execute(work);
      noteWriteSuccess();
      return result;
    } catch (raw) {
      noteWriteFailure(raw);
      const err = translateDbError(raw);
      if (attempt >= ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
