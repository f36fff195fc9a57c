import { sql } from 'kysely';
import type { WriteCtx } from '../../ctx.js';
import type { LabelRow, NewsletterRow, TierRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { errors } from '../../errors.js';
import { findLabel, findLabelNamed } from '../labels/labels.queries.js';
import { insertLabel } from '../labels/labels.service.js';
import { findNewsletter, findNewsletterNamed } from '../newsletters/newsletters.queries.js';
import { findTier } from '../tiers/tiers.queries.js';
import type { RelationRef } from './members.schemas.js';
import { columnsOf } from '../../browse/fields.js';
import { TIER_FIELDS } from '../tiers/tiers.fields.js';

const TIER_COLUMNS = columnsOf(TIER_FIELDS);

const asObject = (ref: RelationRef) => (typeof ref === 'string' ? { name: ref } : ref);
const describe = (ref: RelationRef) => JSON.stringify(typeof ref === 'string' ? ref : (ref.id ?? ref.slug ?? ref.name));

/** Labels named by a member write, in the given order: existing ones by id, slug or name; new names created. */
export async function resolveLabels(ctx: WriteCtx, refs: readonly RelationRef[]): Promise<LabelRow[]> {
  const out = new Map<string, LabelRow>();
  for (const ref of refs.map(asObject)) {
    let label: LabelRow | undefined;
    if (ref.id) label = await findLabel(ctx.db, { id: ref.id });
    if (!label && ref.slug) label = await findLabel(ctx.db, { slug: ref.slug });
    if (!label && ref.name) {
      const named = await findLabelNamed(ctx.db, ctx.engine, ref.name.trim());
      label = named ? await findLabel(ctx.db, { id: named.id }) : await insertLabel(ctx, { name: ref.name, slug: ref.slug });
    }
    // An id or slug nobody has, without a name to create the label from, names nothing (as in Ghost).
    if (label) out.set(label.id, label);
  }
  return [...out.values()];
}

/** Newsletters named by id or name; one that does not exist is a 400. */
export async function resolveNewsletters(ctx: WriteCtx, refs: readonly RelationRef[]): Promise<NewsletterRow[]> {
  const out = new Map<string, NewsletterRow>();
  for (const raw of refs) {
    const ref = asObject(raw);
    let newsletter: NewsletterRow | undefined;
    if (ref.id) newsletter = await findNewsletter(ctx.db, ref.id);
    else if (ref.name) {
      const named = await findNewsletterNamed(ctx.db, ctx.engine, ref.name);
      newsletter = named && (await findNewsletter(ctx.db, named.id));
    }
    if (!newsletter) throw errors.badRequest(`Could not find Newsletter ${describe(raw)}`);
    out.set(newsletter.id, newsletter);
  }
  return [...out.values()];
}

/**
 * The tier a member write names (Ghost allows one): by id, slug or name. Ghost's member repository
 * refuses more than one, an unknown one and an archived one with these messages.
 */
export async function resolveTiers(ctx: WriteCtx, refs: readonly RelationRef[]): Promise<TierRow[]> {
  if (refs.length > 1) throw errors.badRequest('A member cannot have more than one Product');
  const out: TierRow[] = [];
  const bySlug = (slug: string) => ctx.db.selectFrom('products').select(TIER_COLUMNS).where('slug', '=', slug).executeTakeFirst();
  const byName = (name: string) =>
    ctx.db
      .selectFrom('products')
      .select(TIER_COLUMNS)
      .where(ctx.engine.text.lower(sql.ref('name')), '=', name.toLowerCase())
      .executeTakeFirst();
  for (const raw of refs) {
    let tier: TierRow | undefined;
    // A bare string is a slug or, failing that, a name.
    if (typeof raw === 'string') tier = (await bySlug(raw)) ?? (await byName(raw));
    else if (raw.id) tier = await findTier(ctx.db, raw.id);
    else if (raw.slug) tier = await bySlug(raw.slug);
    else if (raw.name) tier = await byName(raw.name);
    if (!tier) throw errors.badRequest(`Could not find Product ${describe(raw)}`);
    if (!tier.active) throw errors.badRequest('Cannot use archived Tiers');
    out.push(tier);
  }
  return out;
}

/** Replaces a member's labels with these, in this order. */
export async function setMemberLabels(ctx: WriteCtx, memberId: string, labels: readonly LabelRow[]): Promise<void> {
  await ctx.db.deleteFrom('members_labels').where('member_id', '=', memberId).execute();
  if (labels.length === 0) return;
  await ctx.db
    .insertInto('members_labels')
    .values(labels.map((label, sort_order) => ({ id: objectId(), member_id: memberId, label_id: label.id, sort_order })))
    .execute();
}

/** Replaces a member's tiers (comped: no expiry). */
export async function setMemberTiers(ctx: WriteCtx, memberId: string, tiers: readonly TierRow[]): Promise<void> {
  await ctx.db.deleteFrom('members_products').where('member_id', '=', memberId).execute();
  if (tiers.length === 0) return;
  await ctx.db
    .insertInto('members_products')
    .values(tiers.map((tier, sort_order) => ({ id: objectId(), member_id: memberId, product_id: tier.id, sort_order, expiry_at: null })))
    .execute();
}

/**
 * Sets a member's subscriptions to these newsletters. Subscriptions to archived newsletters are kept, as
 * Ghost keeps them: the member cannot see or change them, and they come back if the newsletter does.
 * Returns the newsletters joined and left, as Ghost counts them for its subscription events (an archived
 * newsletter the member already had is neither).
 */
export async function setMemberNewsletters(ctx: WriteCtx, memberId: string, newsletterIds: readonly string[]): Promise<{ added: string[]; removed: string[] }> {
  const archived = ctx.db.selectFrom('newsletters').select('id').where('status', '=', 'archived');
  const active = await ctx.db
    .selectFrom('members_newsletters')
    .select('newsletter_id')
    .where('member_id', '=', memberId)
    .where('newsletter_id', 'not in', archived)
    .execute();
  await ctx.db.deleteFrom('members_newsletters').where('member_id', '=', memberId).where('newsletter_id', 'not in', archived).execute();
  const kept = await ctx.db.selectFrom('members_newsletters').select('newsletter_id').where('member_id', '=', memberId).execute();
  const have = new Set(kept.map((row) => row.newsletter_id));
  const wanted = [...new Set(newsletterIds)];
  const rows = wanted.filter((id) => !have.has(id)).map((newsletter_id) => ({ id: objectId(), member_id: memberId, newsletter_id }));
  if (rows.length > 0) await ctx.db.insertInto('members_newsletters').values(rows).execute();
  const before = new Set(active.map((row) => row.newsletter_id));
  return {
    added: wanted.filter((id) => !before.has(id) && !have.has(id)),
    removed: [...before].filter((id) => !wanted.includes(id)),
  };
}
