import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { TagRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import type { WriteCtx } from '../../ctx.js';
import { generateSlug } from '../../content/slugs.js';
import { insertTag } from '../tags/tags.service.js';
import { ownerUserId } from '../users/users.queries.js';
import type { AuthorRef, TagRef } from './posts.input.js';

/** A tag slug cleaned as Ghost cleans slugs given in a post body, without de-duplicating it. */
const cleanTagSlug = (slug: string) => generateSlug(slug, { kind: 'tag', taken: async () => false });

/**
 * Tags named in a post body, resolved as Ghost resolves them: slugs cleaned,
 * names equal ignoring case collapsed (first wins), each tag matched on every property given (so case
 * follows the database collation), new tags created, a given `id` overwriting that tag's name/slug.
 * Returns tag ids in order, without repeats.
 */
export async function resolveTags(ctx: WriteCtx, refs: TagRef[]): Promise<string[]> {
  const kept: TagRef[] = [];
  for (const original of refs) {
    const ref = { ...original };
    if (ref.slug === null) delete ref.slug;
    if (!ref.id && ref.slug) ref.slug = await cleanTagSlug(ref.slug);
    const lower = ref.name?.toLocaleLowerCase();
    if (lower !== undefined && kept.some((other) => other.name?.toLocaleLowerCase() === lower)) continue;
    kept.push(ref);
  }
  const ids: string[] = [];
  for (const ref of kept) {
    const tag = await matchOrCreateTag(ctx, ref);
    if (!ids.includes(tag.id)) ids.push(tag.id);
  }
  return ids;
}

async function matchOrCreateTag(ctx: WriteCtx, ref: TagRef): Promise<TagRow> {
  const { db } = ctx;
  if (ref.id) {
    const existing = await db.selectFrom('tags').selectAll().where('id', '=', ref.id).executeTakeFirst();
    if (existing) return overwriteTag(ctx, existing, ref);
    return insertTag(ctx, { ...(ref.name !== undefined ? { name: ref.name } : {}), ...(ref.slug ? { slug: ref.slug } : {}) });
  }
  let query = db.selectFrom('tags').selectAll();
  if (ref.name !== undefined) query = query.where('name', '=', ref.name);
  if (ref.slug !== undefined) query = query.where('slug', '=', ref.slug);
  const match = await query.orderBy('id').executeTakeFirst();
  if (match) return match;
  return insertTag(ctx, { ...(ref.name !== undefined ? { name: ref.name } : {}), ...(ref.slug ? { slug: ref.slug } : {}) });
}

/** `{id, name: "Renamed"}` renames the tag, as the nested relation update does in Ghost. */
async function overwriteTag(ctx: WriteCtx, tag: TagRow, ref: TagRef): Promise<TagRow> {
  const { db, clock, actingUserId } = ctx;
  const update: Partial<TagRow> = {};
  if (ref.name !== undefined && ref.name !== tag.name) {
    update.name = ref.name;
    if (ref.name.startsWith('#')) update.visibility = 'internal';
  }
  if (ref.slug && ref.slug !== tag.slug) {
    update.slug = await generateSlug(ref.slug, {
      kind: 'tag',
      taken: async (candidate) => !!(await db.selectFrom('tags').select('id').where('slug', '=', candidate).where('id', '!=', tag.id).executeTakeFirst()),
    });
  }
  if (Object.keys(update).length === 0) return tag;
  Object.assign(update, { updated_at: clock.now(), updated_by: actingUserId });
  await db.updateTable('tags').set(update).where('id', '=', tag.id).execute();
  // The renamed tag shows in the Content API whatever the post's status (a draft's save records no site.changed).
  ctx.changesContent();
  return { ...tag, ...update };
}

/**
 * Authors named in a post body: each resolved by id, else slug, else e-mail; an unknown author becomes the
 * Owner (Ghost's behaviour); repeats removed. Posts cannot create users.
 */
export async function resolveAuthors(db: ReadDb, refs: AuthorRef[]): Promise<string[]> {
  if (refs.length === 0) throw errors.validation('At least one author is required.');
  let ownerId: string | null = null;
  const ids: string[] = [];
  for (const ref of refs) {
    let query = db.selectFrom('users').select('id');
    if (ref.id) query = query.where('id', '=', ref.id);
    else if (ref.slug) query = query.where('slug', '=', ref.slug);
    else if (ref.email) query = query.where('email', '=', ref.email);
    else query = query.where('id', '=', '');
    let id = (await query.executeTakeFirst())?.id;
    if (!id) id = ownerId ??= await ownerUserId(db);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export async function tagIdsOf(db: ReadDb, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('posts_tags').select('tag_id').where('post_id', '=', postId).orderBy('sort_order').orderBy('id').execute();
  return rows.map((row) => row.tag_id);
}

export async function authorIdsOf(db: ReadDb, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('posts_authors').select('author_id').where('post_id', '=', postId).orderBy('sort_order').orderBy('id').execute();
  return rows.map((row) => row.author_id);
}

/** Replaces a post's tag list; position in the list is the sort order. */
export async function writeTags(db: Db, postId: string, tagIds: readonly string[], fresh = false): Promise<void> {
  if (!fresh) await db.deleteFrom('posts_tags').where('post_id', '=', postId).execute();
  if (tagIds.length === 0) return;
  await db
    .insertInto('posts_tags')
    .values(tagIds.map((tag_id, sort_order) => ({ id: objectId(), post_id: postId, tag_id, sort_order })))
    .execute();
}

export async function writeAuthors(db: Db, postId: string, authorIds: readonly string[], fresh = false): Promise<void> {
  if (!fresh) await db.deleteFrom('posts_authors').where('post_id', '=', postId).execute();
  if (authorIds.length === 0) return;
  await db
    .insertInto('posts_authors')
    .values(authorIds.map((author_id, sort_order) => ({ id: objectId(), post_id: postId, author_id, sort_order })))
    .execute();
}

export const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);
