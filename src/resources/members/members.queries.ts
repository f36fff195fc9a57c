import { sql } from 'kysely';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { LabelRow, MemberRow, NewsletterRow, TierRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { MEMBER_FIELDS } from './members.fields.js';
import { TIER_FIELDS } from '../tiers/tiers.fields.js';
import { LABEL_FIELDS } from '../labels/labels.fields.js';
import { NEWSLETTER_FIELDS } from '../newsletters/newsletters.fields.js';

const MEMBER_COLUMNS = columnsOf(MEMBER_FIELDS);
const TIER_COLUMNS = columnsOf(TIER_FIELDS);
const LABEL_COLUMNS = columnsOf(LABEL_FIELDS);
const NEWSLETTER_COLUMNS = columnsOf(NEWSLETTER_FIELDS);

export function findMember(db: ReadDb, id: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').select(MEMBER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * The member holding this address, compared without case: MySQL's unique index (Ghost's production engine)
 * already treats `A@x.com` and `a@x.com` as one address, and every engine here keeps the same rule.
 */
export function findMemberByEmail(db: ReadDb, engine: Engine, email: string, exceptId?: string): Promise<{ id: string } | undefined> {
  let query = db
    .selectFrom('members')
    .select('id')
    .where(engine.text.lower(sql.ref('email')), '=', email.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export type MemberTier = TierRow & { expiry_at: Date | null };

/** What a member shows besides its own columns, for a page of members, in Ghost's relation orders. */
export interface MemberRelations {
  labels: Map<string, LabelRow[]>;
  tiers: Map<string, MemberTier[]>;
  /** Active newsletters only, by sort order: archived ones are never shown on a member. */
  newsletters: Map<string, NewsletterRow[]>;
}

function grouped<T extends { member_id: string }>(ids: readonly string[], rows: T[]): Map<string, Omit<T, 'member_id'>[]> {
  const out = new Map<string, Omit<T, 'member_id'>[]>(ids.map((id) => [id, []]));
  for (const { member_id, ...rest } of rows) out.get(member_id)?.push(rest);
  return out;
}

/** Labels, tiers and newsletters of these members: three queries whatever the page size. */
export async function relationsOfMembers(db: ReadDb, ids: readonly string[]): Promise<MemberRelations> {
  if (ids.length === 0) return { labels: new Map(), tiers: new Map(), newsletters: new Map() };
  const [labels, tiers, newsletters] = await Promise.all([
    db
      .selectFrom('members_labels')
      .innerJoin('labels', 'labels.id', 'members_labels.label_id')
      .select(LABEL_COLUMNS.map((column) => `labels.${column}` as const))
      .select('members_labels.member_id')
      .where('members_labels.member_id', 'in', ids)
      .orderBy('members_labels.sort_order')
      .orderBy('labels.name')
      .execute(),
    db
      .selectFrom('members_products')
      .innerJoin('products', 'products.id', 'members_products.product_id')
      .select(TIER_COLUMNS.map((column) => `products.${column}` as const))
      .select(['members_products.member_id', 'members_products.expiry_at'])
      .where('members_products.member_id', 'in', ids)
      .orderBy('members_products.sort_order')
      .execute(),
    db
      .selectFrom('members_newsletters')
      .innerJoin('newsletters', 'newsletters.id', 'members_newsletters.newsletter_id')
      .select(NEWSLETTER_COLUMNS.map((column) => `newsletters.${column}` as const))
      .select('members_newsletters.member_id')
      .where('members_newsletters.member_id', 'in', ids)
      .where('newsletters.status', '=', 'active')
      .orderBy('newsletters.sort_order')
      .orderBy('newsletters.created_at')
      .execute(),
  ]);
  return {
    labels: grouped(ids, labels) as Map<string, LabelRow[]>,
    tiers: grouped(ids, tiers) as Map<string, MemberTier[]>,
    newsletters: grouped(ids, newsletters) as Map<string, NewsletterRow[]>,
  };
}

/** Ghost's sign-up newsletters: active, subscribed on sign-up, for members (not paid-only). */
export function signupNewsletterIds(db: ReadDb): Promise<{ id: string }[]> {
  return db
    .selectFrom('newsletters')
    .select('id')
    .where('status', '=', 'active')
    .where('subscribe_on_signup', '=', true)
    .where('visibility', '=', 'members')
    .orderBy('sort_order')
    .execute();
}

/** Every member's status and creation time, oldest first: what the count history is built from. */
export function memberCreations(db: ReadDb): Promise<Pick<MemberRow, 'status' | 'created_at'>[]> {
  return db.selectFrom('members').select(['status', 'created_at']).orderBy('created_at').execute();
}

/** The tier a members import names (the last made of that name, as Ghost's importer finds it). */
export function latestTierNamed(db: ReadDb, name: string): Promise<TierRow | undefined> {
  return db.selectFrom('products').select(TIER_COLUMNS).where('name', '=', name).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** Every newsletter's id by its name in lower case: a members import names newsletters without case. */
export async function newsletterIdsByName(db: ReadDb): Promise<Map<string, string>> {
  const rows = await db.selectFrom('newsletters').select(['id', 'name']).execute();
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

/** The site's first active paid tier: where a members import puts comped rows. */
export function firstActivePaidTier(db: ReadDb): Promise<TierRow | undefined> {
  return db
    .selectFrom('products')
    .select(TIER_COLUMNS)
    .where('type', '=', 'paid')
    .where('active', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

/** The active newsletters a member is subscribed to. */
export function activeNewslettersOfMember(db: ReadDb, memberId: string): Promise<{ id: string }[]> {
  return db
    .selectFrom('members_newsletters')
    .innerJoin('newsletters', 'newsletters.id', 'members_newsletters.newsletter_id')
    .select('newsletters.id')
    .where('members_newsletters.member_id', '=', memberId)
    .where('newsletters.status', '=', 'active')
    .execute();
}
