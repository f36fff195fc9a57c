import type { Ctx, WriteCtx } from '../../ctx.js';
import type { Db } from '../../db/connect.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { chunksOf, insertInChunks } from '../../db/chunks.js';
import { insertTag } from '../tags/tags.service.js';
import { deletePosts, postIdsMatching, type PostWhere } from './posts.queries.js';
import { BULK_TRANSITIONS } from './posts.transition.js';
import type { BulkInput, PostType } from './posts.schemas.js';

export interface BulkStats {
  successful: number;
  unsuccessful: number;
}

const unsupported = () => errors.incorrectUsage('Unsupported bulk action');

/** `DELETE /posts/?filter=…`: every post of this type matching the filter (all of them without one, as in Ghost). */
export async function bulkDestroy(ctx: Ctx, type: PostType, where: PostWhere | null): Promise<BulkStats> {
  return ctx.write(async ({ db: trx }) => {
    const ids = await postIdsMatching(trx, { type, ...(where ? { where } : {}) });
    for (const chunk of chunksOf(ids)) await deletePosts(trx, chunk);
    return { successful: ids.length, unsuccessful: 0 };
  });
}

/**
 * `PUT /posts/bulk/?filter=…` with `{"bulk": {"action", "meta"}}`: unpublish, unschedule, feature,
 * unfeature, access (visibility) and addTag, each on every matching post of this type in one transaction.
 * Like Ghost's bulk edits these write the columns only (no `updated_at`, no revisions).
 */
export async function bulkEdit(ctx: Ctx, type: PostType, bulk: BulkInput, where: PostWhere) {
  // Ghost answers addTag with the stats alone; the other actions add (empty) error lists.
  if (bulk.action === 'addTag') return { stats: await addTags(ctx, type, where, bulk.meta?.tags) };
  return { stats: await bulkUpdate(ctx, type, bulk, where), errors: [], unsuccessfulData: [] };
}

async function bulkUpdate(ctx: Ctx, type: PostType, bulk: BulkInput, where: PostWhere): Promise<BulkStats> {
  const meta = bulk.meta ?? {};
  switch (bulk.action) {
    case 'unpublish':
    case 'unschedule': {
      const { from, set } = BULK_TRANSITIONS[bulk.action];
      return update(ctx, type, where, from, set);
    }
    case 'feature':
      return update(ctx, type, where, null, { featured: true });
    case 'unfeature':
      return update(ctx, type, where, null, { featured: false });
    case 'access': {
      if (typeof meta.visibility !== 'string' || !['public', 'members', 'paid', 'tiers'].includes(meta.visibility)) {
        throw errors.incorrectUsage('Invalid visibility value.');
      }
      if (meta.visibility === 'tiers' && !Array.isArray(meta.tiers)) throw errors.incorrectUsage('Invalid tiers value.');
      return update(ctx, type, where, null, { visibility: meta.visibility }, meta.visibility === 'tiers' ? (meta.tiers as unknown[]) : undefined);
    }
    default:
      throw unsupported();
  }
}

async function update(
  ctx: Ctx,
  type: PostType,
  where: PostWhere,
  status: string | null,
  values: Record<string, unknown>,
  tiers?: unknown[],
): Promise<BulkStats> {
  return ctx.write(async ({ db: trx }) => {
    const ids = await postIdsMatching(trx, { type, where, ...(status ? { statuses: [status] } : {}) });
    for (const chunk of chunksOf(ids)) {
      await trx.updateTable('posts').set(values).where('id', 'in', chunk).execute();
      // Unscheduled e-mail-only posts stop being e-mail-only, as in Ghost.
      if (status === 'scheduled') await trx.updateTable('posts_meta').set({ email_only: false }).where('post_id', 'in', chunk).execute();
      if (tiers) await replaceTiers(trx, chunk, tiers);
    }
    return { successful: ids.length, unsuccessful: 0 };
  });
}

async function addTags(ctx: Ctx, type: PostType, where: PostWhere, tags: unknown): Promise<BulkStats> {
  if (!Array.isArray(tags) || tags.some((tag) => !tag || typeof tag !== 'object' || (!(tag as { id?: unknown }).id && !(tag as { name?: unknown }).name))) {
    throw errors.incorrectUsage('Invalid tags value.');
  }
  return ctx.write(async (w: WriteCtx) => {
    const trx = w.db;
    const tagIds: string[] = [];
    for (const tag of tags as { id?: string; name?: string }[]) {
      tagIds.push(tag.id ?? (await insertTag(w, { name: String(tag.name) })).id);
    }
    const ids = await postIdsMatching(trx, { type, where });
    // Ghost inserts a link even where the post already has the tag; a repeated tag helps no one, so skip those.
    const existing = ids.length
      ? await trx.selectFrom('posts_tags').select(['post_id', 'tag_id']).where('post_id', 'in', ids).where('tag_id', 'in', tagIds).execute()
      : [];
    const have = new Set(existing.map((row) => `${row.post_id}:${row.tag_id}`));
    const rows = ids.flatMap((post_id) =>
      tagIds.filter((tag_id) => !have.has(`${post_id}:${tag_id}`)).map((tag_id) => ({ id: objectId(), post_id, tag_id, sort_order: 0 })),
    );
    await insertInChunks(trx, 'posts_tags', rows);
    return { successful: ids.length, unsuccessful: 0 };
  });
}

/**
 * The bulk `access` action's tiers, as Ghost's `#updatePosts` writes them: every post's links dropped, then
 * each entry with a string `id` linked (no free-tier filter, unlike a single post's edit). An id naming no
 * tier is skipped rather than left to break the foreign key.
 */
async function replaceTiers(db: Db, postIds: readonly string[], tiers: unknown[]): Promise<void> {
  await db.deleteFrom('posts_products').where('post_id', 'in', postIds).execute();
  const named = tiers.map((tier) => (tier as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string');
  const known = new Set(named.length ? (await db.selectFrom('products').select('id').where('id', 'in', named).execute()).map((row) => row.id) : []);
  const ids = named.filter((id) => known.has(id));
  const rows = postIds.flatMap((post_id) => ids.map((product_id, sort_order) => ({ id: objectId(), post_id, product_id, sort_order })));
  await insertInChunks(db, 'posts_products', rows);
}
