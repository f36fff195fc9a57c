import type { ReadDb } from '../../db/read-db.js';
import type { Db } from '../../db/connect.js';
import type { MemberRow, NewsletterRow, PostRow, RedirectRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { NEWSLETTER_FIELDS } from '../newsletters/newsletters.fields.js';

const NEWSLETTER_COLUMNS = columnsOf(NEWSLETTER_FIELDS);

/** The byline's names, in the post's author order. */
export async function authorNamesOfPost(db: ReadDb, postId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('posts_authors')
    .innerJoin('users', 'users.id', 'posts_authors.author_id')
    .select('users.name')
    .where('posts_authors.post_id', '=', postId)
    .orderBy('posts_authors.sort_order')
    .execute();
  return rows.map((row) => row.name);
}

/** The email-only flag and the feature image's alt text and caption (posts_meta). */
export async function emailMetaOfPost(db: ReadDb, postId: string) {
  return (
    (await db
      .selectFrom('posts_meta')
      .select(['email_subject', 'email_only', 'feature_image_alt', 'feature_image_caption'])
      .where('post_id', '=', postId)
      .executeTakeFirst()) ?? null
  );
}

export async function postById(db: ReadDb, id: string): Promise<PostRow | null> {
  return (await db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function newsletterBySlug(db: ReadDb, slug: string): Promise<NewsletterRow | null> {
  return (await db.selectFrom('newsletters').select(NEWSLETTER_COLUMNS).where('slug', '=', slug).executeTakeFirst()) ?? null;
}

/** Ghost's default newsletter: the first active one in sort order. */
export async function defaultNewsletter(db: ReadDb): Promise<NewsletterRow | null> {
  return (
    (await db
      .selectFrom('newsletters')
      .select(NEWSLETTER_COLUMNS)
      .where('status', '=', 'active')
      .orderBy('sort_order')
      .orderBy('created_at')
      .executeTakeFirst()) ?? null
  );
}

export async function memberByEmail(db: ReadDb, email: string): Promise<Pick<MemberRow, 'uuid' | 'email' | 'name' | 'status' | 'created_at'> | null> {
  return (await db.selectFrom('members').select(['uuid', 'email', 'name', 'status', 'created_at']).where('email', '=', email).executeTakeFirst()) ?? null;
}

export async function insertRedirects(db: Db, rows: RedirectRow[]): Promise<void> {
  if (rows.length) await db.insertInto('redirects').values(rows).execute();
}

export async function redirectSlugsTaken(db: Db, froms: string[]): Promise<Set<string>> {
  if (!froms.length) return new Set();
  const rows = await db.selectFrom('redirects').select('from').where('from', 'in', froms).execute();
  return new Set(rows.map((row) => row.from));
}
