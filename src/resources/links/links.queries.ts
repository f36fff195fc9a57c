import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Where } from '../../filter/render.js';
import type { MemberClickEventRow, RedirectRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { REDIRECT_FIELDS } from './links.fields.js';

const REDIRECT_COLUMNS = columnsOf(REDIRECT_FIELDS);

/** Tracked links with their click counts, most clicked first, then `to` descending (Ghost's order). */
export async function redirectsWithClicks(db: ReadDb, where: Where | null) {
  let query = db
    .selectFrom('redirects')
    .leftJoin('members_click_events', 'members_click_events.redirect_id', 'redirects.id')
    .select(['redirects.id', 'redirects.from', 'redirects.to', 'redirects.post_id', 'redirects.created_at', 'redirects.updated_at'])
    .select(sql<number>`count(members_click_events.id)`.as('clicks'))
    .groupBy(['redirects.id', 'redirects.from', 'redirects.to', 'redirects.post_id', 'redirects.created_at', 'redirects.updated_at']);
  if (where) query = query.where(where);
  return query.orderBy('clicks', 'desc').orderBy('redirects.to', 'desc').execute();
}

export async function redirectByFrom(db: ReadDb, from: string): Promise<RedirectRow | null> {
  return (await db.selectFrom('redirects').select(REDIRECT_COLUMNS).where('from', '=', from).executeTakeFirst()) ?? null;
}

export async function redirectIdsOfPostTo(db: ReadDb, postId: string, to: string): Promise<string[]> {
  const rows = await db.selectFrom('redirects').select('id').where('post_id', '=', postId).where('to', '=', to).execute();
  return rows.map((row) => row.id);
}

export async function updateRedirectTargets(db: Db, ids: string[], to: string, at: Date): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.updateTable('redirects').set({ to, updated_at: at }).where('id', 'in', ids).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function memberForClick(db: ReadDb, uuid: string) {
  return (await db.selectFrom('members').select(['id', 'last_seen_at']).where('uuid', '=', uuid).executeTakeFirst()) ?? null;
}

export async function insertClick(db: Db, row: MemberClickEventRow): Promise<void> {
  await db.insertInto('members_click_events').values(row).execute();
}

export async function setMemberLastSeen(db: Db, memberId: string, at: Date): Promise<void> {
  await db.updateTable('members').set({ last_seen_at: at }).where('id', '=', memberId).execute();
}

export async function emailForLinks(db: ReadDb, emailId: string) {
  return (
    (await db
      .selectFrom('emails')
      .leftJoin('newsletters', 'newsletters.id', 'emails.newsletter_id')
      .select(['emails.post_id', 'newsletters.name as newsletter_name'])
      .where('emails.id', '=', emailId)
      .executeTakeFirst()) ?? null
  );
}
