import type { Db } from './connect.js';

/**
 * The database as a ctx offers it outside `ctx.write`: reads only. `insertInto`, `updateTable`, `deleteFrom`,
 * `replaceInto`, `mergeInto` and `transaction` are not on it, so a write outside `ctx.write` (no transaction
 * retry, no outbox) fails to compile. Read queries take this type; the transaction `ctx.write` hands out is a
 * full `Db`, which a `ReadDb` parameter accepts too. `getExecutor` stays for `sql` fragments (reads).
 *
 * The documented writes that run outside `ctx.write` on purpose use `ctx.autocommitDb` (see `ctx.ts`).
 */
export type ReadDb = Pick<Db, 'selectFrom' | 'selectNoFrom' | 'with' | 'withRecursive' | 'fn' | 'dynamic' | 'getExecutor' | 'isTransaction'>;
