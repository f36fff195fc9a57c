import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { TierRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { listTiers } from '../tiers/tiers.queries.js';
import { presentTierRelation } from '../tiers/tiers.present.js';
import { readSettings } from '../../settings/settings.js';
import type { PostChanges } from './posts.input.js';
import { parseNql } from '../../filter/nql.js';
import { shownVisibility } from './posts.model.js';

/**
 * Replaces a post's tiers. The free tier is never linked (Ghost drops it); an id that names no tier fails
 * as Ghost's relation plugin fails, trying to create a tier without a name.
 */
export async function writePostTiers(db: Db, postId: string, tierIds: readonly string[]): Promise<void> {
  const found = tierIds.length ? await db.selectFrom('products').select(['id', 'type']).where('id', 'in', tierIds).execute() : [];
  // Rendered as Ghost's "Validation error, cannot save/edit post." with this context.
  if (found.length < tierIds.length) throw errors.validation('Value in [products.name] cannot be blank. products.name');
  const free = new Set(found.filter((tier) => tier.type === 'free').map((tier) => tier.id));
  await db.deleteFrom('posts_products').where('post_id', '=', postId).execute();
  const rows = tierIds.filter((id) => !free.has(id)).map((product_id, sort_order) => ({ id: objectId(), post_id: postId, product_id, sort_order }));
  if (rows.length) await db.insertInto('posts_products').values(rows).execute();
}

/**
 * Ghost's post defaults: a new post without a `visibility` takes the site's `default_content_visibility`,
 * and without `tiers` (when that default is `tiers`) the tiers of `default_content_visibility_tiers`. Ids
 * there that name no tier any more are skipped, so a stale setting cannot make every new post fail.
 */
export async function applyDefaultVisibility(db: ReadDb, changes: PostChanges): Promise<void> {
  if (changes.post.visibility !== undefined && changes.tiers !== undefined) return;
  const settings = await readSettings(db, ['default_content_visibility', 'default_content_visibility_tiers']);
  const visibility = settings.get('default_content_visibility') || 'public';
  if (changes.post.visibility === undefined) changes.post.visibility = visibility;
  if (changes.tiers !== undefined || visibility !== 'tiers') return;
  let ids: unknown;
  try {
    ids = JSON.parse(settings.get('default_content_visibility_tiers') || '[]');
  } catch {
    ids = [];
  }
  const named = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  const known = named.length ? await db.selectFrom('products').select('id').where('id', 'in', named).execute() : [];
  changes.tiers = named.filter((id) => known.some((tier) => tier.id === id));
}

/** Tier ids of a post in their order (copying a post copies them). */
export async function tierIdsOfPost(db: ReadDb, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('posts_products').select('product_id').where('post_id', '=', postId).orderBy('sort_order').execute();
  return rows.map((row) => row.product_id);
}

/** Each post's own tiers, in their order, in one query. */
export async function tiersOfPosts(db: ReadDb, postIds: readonly string[]): Promise<Map<string, TierRow[]>> {
  const byPost = new Map<string, TierRow[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom('posts_products')
    .innerJoin('products', 'products.id', 'posts_products.product_id')
    .selectAll('products')
    .select('posts_products.post_id as _post_id')
    .where('posts_products.post_id', 'in', postIds)
    .orderBy('posts_products.sort_order')
    .orderBy('posts_products.id')
    .execute();
  for (const { _post_id, ...tier } of rows) byPost.get(_post_id)?.push(tier as TierRow);
  return byPost;
}

/** What the presenters need to list a post's `tiers`: every tier (Ghost's tiers browse), and each post's own. */
export interface PostTiers {
  all: TierRow[];
  own: Map<string, TierRow[]>;
}

export async function loadPostTiers(db: ReadDb, engine: Engine, postIds: readonly string[]): Promise<PostTiers> {
  const [all, own] = await Promise.all([listTiers(db, engine, undefined), tiersOfPosts(db, postIds)]);
  return { all, own };
}

/**
 * One tier inside a post, in Ghost's key order. Ghost builds the lists for public/members/paid posts from
 * its tier entities (currency lower-case) but shows a `tiers` post's own tiers as the raw rows, whose
 * currency Ghost stores upper-case (observed on 5.130.6).
 */
function presentPostTier(tier: TierRow, currencyCase: 'lower' | 'upper') {
  const currency = tier.type === 'paid' && tier.currency ? tier.currency[currencyCase === 'lower' ? 'toLowerCase' : 'toUpperCase']() : null;
  // A free tier has no prices, and no Stripe prices exist here.
  const paid = tier.type === 'paid';
  return {
    ...presentTierRelation(tier, currency),
    monthly_price: paid ? tier.monthly_price : null,
    yearly_price: paid ? tier.yearly_price : null,
    monthly_price_id: null,
    yearly_price_id: null,
  };
}

/**
 * Ghost's posts mapper: public and members posts list every tier (free included), paid posts every paid
 * tier, `tiers` posts (and member-filter visibilities, shown as `tiers`) their own paid tiers.
 */
export function tiersForPost(visibility: string, postId: string, tiers: PostTiers) {
  switch (shownVisibility(visibility)) {
    case 'public':
    case 'members':
      return tiers.all.map((tier) => presentPostTier(tier, 'lower'));
    case 'paid':
      return tiers.all.filter((tier) => tier.type === 'paid').map((tier) => presentPostTier(tier, 'lower'));
    default:
      if (visibility === 'tiers') return (tiers.own.get(postId) ?? []).filter((tier) => tier.type === 'paid').map((tier) => presentPostTier(tier, 'upper'));
      return tiersNamedIn(visibility, tiers.all).map((tier) => presentPostTier(tier, 'upper'));
  }
}

/**
 * A member-filter visibility (`product:a,product:b`) lists the tiers its `product:` statements name, in
 * their order, as Ghost's `getProductsFromVisibilityFilter` reads them (a single statement or one `$or`).
 */
function tiersNamedIn(filter: string, all: TierRow[]): TierRow[] {
  let json: Record<string, unknown>;
  try {
    json = parseNql(filter);
  } catch {
    return [];
  }
  const statements = (json.product ? [json] : json.$or) as Record<string, unknown>[] | undefined;
  return (statements ?? []).map((statement) => all.find((tier) => tier.slug === statement.product)).filter((tier): tier is TierRow => !!tier);
}
