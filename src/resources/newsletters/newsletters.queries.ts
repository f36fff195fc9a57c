import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, NewsletterRow } from '../../db/schema.js';
import type { Engine } from '../../db/engine.js';
import { insertInChunks } from '../../db/chunks.js';
import { columnsOf } from '../../browse/fields.js';
import { NEWSLETTER_FIELDS } from './newsletters.fields.js';

const NEWSLETTER_COLUMNS = columnsOf(NEWSLETTER_FIELDS);

export function findNewsletter(db: ReadDb, id: string): Promise<NewsletterRow | undefined> {
  return db.selectFrom('newsletters').select(NEWSLETTER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function findActiveNewsletterBySlug(db: ReadDb, slug: string): Promise<NewsletterRow | undefined> {
  return db.selectFrom('newsletters').select(NEWSLETTER_COLUMNS).where('slug', '=', slug).where('status', '=', 'active').executeTakeFirst();
}

export function newslettersByIds(db: ReadDb, ids: readonly string[]): Promise<NewsletterRow[]> {
  return ids.length ? db.selectFrom('newsletters').select(NEWSLETTER_COLUMNS).where('id', 'in', ids).execute() : Promise.resolve([]);
}

export async function insertNewsletter(db: Db, row: NewsletterRow): Promise<void> {
  await db.insertInto('newsletters').values(row).execute();
}

export async function updateNewsletter(db: Db, id: string, changes: Partial<NewsletterRow>): Promise<void> {
  await db.updateTable('newsletters').set(changes).where('id', '=', id).execute();
}

export async function renameNewsletterBySlug(db: Db, slug: string, name: string, at: Date): Promise<void> {
  await db.updateTable('newsletters').set({ name, updated_at: at }).where('slug', '=', slug).execute();
}

/** Another newsletter of this name, compared without case (as MySQL's unique index, Ghost's production engine, does). */
export function findNewsletterNamed(db: ReadDb, engine: Engine, name: string, exceptId?: string): Promise<{ id: string } | undefined> {
  let query = db
    .selectFrom('newsletters')
    .select('id')
    .where(engine.text.lower(sql.ref('name')), '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function newsletterSlugTaken(db: ReadDb, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('newsletters').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Ghost's `getNextAvailableSortOrder`: one past the highest active newsletter, 0 when none is active. */
export async function nextSortOrder(db: ReadDb): Promise<number> {
  const row = await db
    .selectFrom('newsletters')
    .select((eb) => eb.fn.max('sort_order').as('highest'))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.highest === null || row?.highest === undefined ? 0 : Number(row.highest) + 1;
}

type Eb = ExpressionBuilder<Database, 'newsletters'>;

/** `count.posts`, `count.members` and `count.active_members` (members whose e-mail is not disabled). */
export const NEWSLETTER_COUNTS = {
  'count.posts': (eb: Eb) =>
    eb
      .selectFrom('posts')
      .whereRef('posts.newsletter_id', '=', 'newsletters.id')
      .select(sql<number>`count(posts.id)`.as('n')),
  'count.members': (eb: Eb) =>
    eb
      .selectFrom('members_newsletters')
      .whereRef('members_newsletters.newsletter_id', '=', 'newsletters.id')
      .select(sql<number>`count(members_newsletters.id)`.as('n')),
  'count.active_members': (eb: Eb) =>
    eb
      .selectFrom('members_newsletters')
      .innerJoin('members', 'members.id', 'members_newsletters.member_id')
      .whereRef('members_newsletters.newsletter_id', '=', 'newsletters.id')
      .where('members.email_disabled', '=', false)
      .select(sql<number>`count(members_newsletters.id)`.as('n')),
} as const;

export type NewsletterCount = keyof typeof NEWSLETTER_COUNTS;

/** The included counts of each of these newsletters, as `{posts, members, active_members}` objects. */
export async function countsOfNewsletters(
  db: ReadDb,
  ids: readonly string[],
  include: readonly NewsletterCount[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (ids.length === 0 || include.length === 0) return out;
  let query = db.selectFrom('newsletters').select('newsletters.id').where('newsletters.id', 'in', ids);
  for (const name of include) query = query.select((eb) => NEWSLETTER_COUNTS[name](eb).as(name.slice('count.'.length))) as typeof query;
  const rows = (await query.execute()) as Record<string, unknown>[];
  for (const row of rows) {
    out.set(row.id as string, Object.fromEntries(include.map((name) => [name.slice('count.'.length), Number(row[name.slice('count.'.length)] ?? 0)])));
  }
  return out;
}

/** Subscribes every member subscribed to an active newsletter to this one; returns how many. */
export async function optInExistingMembers(db: Db, newsletterId: string, newId: () => string): Promise<number> {
  const members = await db
    .selectFrom('members_newsletters')
    .innerJoin('newsletters', 'newsletters.id', 'members_newsletters.newsletter_id')
    .select('members_newsletters.member_id')
    .distinct()
    .where('newsletters.status', '=', 'active')
    .where('newsletters.id', '!=', newsletterId)
    .execute();
  await insertInChunks(
    db,
    'members_newsletters',
    members.map((m) => ({ id: newId(), member_id: m.member_id, newsletter_id: newsletterId })),
  );
  return members.length;
}
