import type { Db } from '../../db/connect.js';
import type { InviteRow } from '../../db/schema.js';

export function findInvite(db: Db, id: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countInvites(db: Db): Promise<number> {
  const row = await db.selectFrom('invites').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Oldest first: the order invitations were sent. */
export function listInvites(db: Db, window: { offset: number; limit: number | null }): Promise<InviteRow[]> {
  let query = db.selectFrom('invites').selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc');
  if (window.limit !== null) query = query.limit(window.limit).offset(window.offset);
  return query.execute();
}

/** The sent invitation a link's token belongs to (looked up by the token's hash). */
export function findSentInviteByTokenHash(db: Db, tokenHash: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).where('status', '=', 'sent').executeTakeFirst();
}

/** Whether a sent invitation exists for the e-mail address (any case). */
export async function hasSentInvite(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('invites').select('id').where('status', '=', 'sent')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
  return row !== undefined;
}
