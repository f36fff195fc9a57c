import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { InviteRow } from '../../db/schema.js';

export function findInvite(db: ReadDb, id: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The sent invitation a link's token belongs to (looked up by the token's hash). */
export function findSentInviteByTokenHash(db: ReadDb, tokenHash: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).where('status', '=', 'sent').executeTakeFirst();
}

/** Whether a sent invitation exists for the e-mail address (any case). */
export async function hasSentInvite(db: ReadDb, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('invites')
    .select('id')
    .where('status', '=', 'sent')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

/** The invitation to an address, replacing an earlier one to it (addresses compared without case). */
export async function replaceInvite(db: Db, invite: InviteRow): Promise<void> {
  await db
    .deleteFrom('invites')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', invite.email.toLowerCase()))
    .execute();
  await db.insertInto('invites').values(invite).execute();
}

/** Whether there was such an invitation to delete. */
export async function deleteInvite(db: Db, id: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('invites').where('id', '=', id).executeTakeFirst();
  return numDeletedRows > 0n;
}
