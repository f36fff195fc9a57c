import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { MEMBER_FIELDS } from '../members/members.fields.js';

const MEMBER_COLUMNS = columnsOf(MEMBER_FIELDS);

type Row<T extends keyof Database> = Insertable<Database[T]>;

// Members

/** Compared as given (not without case, unlike `findMemberByEmail`): the address comes from a token this site signed. */
export function findMemberWithEmail(db: ReadDb, email: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').select(MEMBER_COLUMNS).where('email', '=', email).executeTakeFirst();
}

export function findMemberEmail(db: ReadDb, email: string): Promise<{ email: string } | undefined> {
  return db.selectFrom('members').select(['email']).where('email', '=', email).executeTakeFirst();
}

export function findMemberByUuid(db: ReadDb, uuid: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').select(MEMBER_COLUMNS).where('uuid', '=', uuid).executeTakeFirst();
}

export function findMemberByTransientId(db: ReadDb, transientId: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').select(MEMBER_COLUMNS).where('transient_id', '=', transientId).executeTakeFirst();
}

export function tierIdsOfMember(db: ReadDb, memberId: string): Promise<{ product_id: string }[]> {
  return db.selectFrom('members_products').select('product_id').where('member_id', '=', memberId).execute();
}

export async function insertMember(db: Db, row: Row<'members'>): Promise<void> {
  await db.insertInto('members').values(row).execute();
}

export async function updateMember(db: Db, memberId: string, values: Updateable<Database['members']>): Promise<void> {
  await db.updateTable('members').set(values).where('id', '=', memberId).execute();
}

export async function insertLoginEvent(db: Db, row: Row<'members_login_events'>): Promise<void> {
  await db.insertInto('members_login_events').values(row).execute();
}

export async function insertEmailChangeEvent(db: Db, row: Row<'members_email_change_events'>): Promise<void> {
  await db.insertInto('members_email_change_events').values(row).execute();
}

export async function insertStatusEvent(db: Db, row: Row<'members_status_events'>): Promise<void> {
  await db.insertInto('members_status_events').values(row).execute();
}

export async function insertSubscribeEvents(db: Db, rows: Row<'members_subscribe_events'>[]): Promise<void> {
  await db.insertInto('members_subscribe_events').values(rows).execute();
}

export async function insertCreatedEvent(db: Db, row: Row<'members_created_events'>): Promise<void> {
  await db.insertInto('members_created_events').values(row).execute();
}

// Newsletters, tiers, posts

export function newslettersNamed(db: ReadDb, names: string[]) {
  return db.selectFrom('newsletters').select(['id', 'name', 'status']).where('name', 'in', names).execute();
}

/** Of these newsletter ids, the ones that exist and are active. */
export function activeNewslettersAmong(db: ReadDb, ids: string[]): Promise<{ id: string }[]> {
  return db.selectFrom('newsletters').select('id').where('id', 'in', ids).where('status', '=', 'active').execute();
}

export function freeTierWelcomePage(db: ReadDb) {
  return db.selectFrom('products').select('welcome_page_url').where('type', '=', 'free').executeTakeFirst();
}

export function findPostId(db: ReadDb, id: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('posts').select('id').where('id', '=', id).executeTakeFirst();
}

export function publishedPostById(db: ReadDb, id: string) {
  return db.selectFrom('posts').select(['id', 'slug', 'type']).where('id', '=', id).where('status', '=', 'published').executeTakeFirst();
}

export function publishedPostBySlug(db: ReadDb, slug: string) {
  return db.selectFrom('posts').select(['id', 'type']).where('slug', '=', slug).where('status', '=', 'published').executeTakeFirst();
}

// Feedback

export function findFeedback(db: ReadDb, postId: string, memberId: string) {
  return db.selectFrom('members_feedback').selectAll().where('post_id', '=', postId).where('member_id', '=', memberId).executeTakeFirst();
}

export async function updateFeedbackScore(db: Db, id: string, score: number, at: Date): Promise<void> {
  await db.updateTable('members_feedback').set({ score, updated_at: at }).where('id', '=', id).execute();
}

export async function insertFeedback(db: Db, row: Row<'members_feedback'>): Promise<void> {
  await db.insertInto('members_feedback').values(row).execute();
}

// Magic-link tokens

export async function insertToken(db: Db, row: Row<'tokens'>): Promise<void> {
  await db.insertInto('tokens').values(row).execute();
}

/** Counts one use of the token; false when no such token. */
export async function countTokenUse(db: Db, token: string, at: Date): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('tokens')
    .set((eb) => ({ used_count: eb('used_count', '+', 1), updated_at: at, first_used_at: eb.fn.coalesce('first_used_at', eb.val(at)) }))
    .where('token', '=', token)
    .executeTakeFirst();
  return numUpdatedRows !== 0n;
}

export function findTokenOrThrow(db: ReadDb, token: string) {
  return db.selectFrom('tokens').selectAll().where('token', '=', token).executeTakeFirstOrThrow();
}

export async function deleteTokensCreatedBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('tokens').where('created_at', '<', before).execute();
}
