import type { Ctx } from '../../ctx.js';
import type { ReadDb } from '../../db/read-db.js';
import type { MemberCreatedEventRow, MemberRow, NewsletterRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { errors } from '../../errors.js';
import { FilterCompiler } from '../../filter/compile.js';
import { mapStatements } from '../../filter/merge.js';
import { parseNql, type NqlNode } from '../../filter/nql.js';
import { renderCondition } from '../../filter/render.js';
import type { FieldType, FilterSpec } from '../../filter/spec.js';
import { presentAdminNewsletter } from '../newsletters/newsletters.present.js';
import { gravatarUrl } from './members.present.js';
import { presentAttribution } from './members.activity.js';

/**
 * `GET /members/events/` (Ghost's `members.activityFeed`, its EventRepository's `getEventTimeline`): the
 * newest events of every kind, merged, each `{type, data: {…, member}}`. Of Ghost's kinds only those this
 * service records can appear: `signup_event`, `newsletter_event` and `email_change_event`. The others
 * (comments, clicks, logins, payments, paid subscriptions, donations, e-mail delivery, feedback) need
 * member sign-in, Stripe or a mail provider and never occur here.
 *
 * As in Ghost: each kind is read newest first up to `limit`, the pages are merged and cut to `limit`,
 * `total` adds up every kind's count; there are no pages (`page`, `next`, `prev` are null): clients page
 * with `filter=data.created_at:<'…'`. `filter` may use `type`, `data.created_at`, `data.member_id`,
 * `data.post_id` and `id`; statements on `type` choose the kinds and must not be ORed with the others.
 */

type Json = Record<string, unknown>;
type Kind = 'signup_event' | 'newsletter_event' | 'email_change_event';

interface Source {
  type: Kind;
  table: 'members_created_events' | 'members_subscribe_events' | 'members_email_change_events';
  fields: Readonly<Record<string, FieldType>>;
  /** Whether `data.post_id` means something for this kind (sign-ups: the post that brought the member). */
  byPost: boolean;
}

const COMMON = { id: 'text', created_at: 'date', member_id: 'text' } as const;
const SOURCES: readonly Source[] = [
  { type: 'signup_event', table: 'members_created_events', fields: { ...COMMON, attribution_id: 'text', attribution_type: 'text' }, byPost: true },
  { type: 'newsletter_event', table: 'members_subscribe_events', fields: COMMON, byPost: false },
  { type: 'email_change_event', table: 'members_email_change_events', fields: COMMON, byPost: false },
];

const ALLOWED_KEYS = ['data.created_at', 'data.member_id', 'data.post_id', 'type', 'id'];
const DATA_KEYS: Readonly<Record<string, string>> = { 'data.created_at': 'created_at', 'data.member_id': 'member_id', id: 'id' };

function keysOf(node: NqlNode, into = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') for (const child of value as NqlNode[]) keysOf(child, into);
    else if (key === 'yg') keysOf(value as NqlNode, into);
    else into.add(key);
  }
  return into;
}

/** Ghost's `splitFilter(parsed, ['type'])`: the statements on `type`, and the rest, ANDed at the top. */
function splitByType(node: NqlNode): [NqlNode | null, NqlNode | null] {
  const keys = keysOf(node);
  if (!keys.has('type')) return [null, node];
  if (keys.size === 1) return [node, null];
  const children = Array.isArray(node.$and) && Object.keys(node).length === 1 ? (node.$and as NqlNode[]) : null;
  if (!children) throw errors.incorrectUsage('This filter is not supported because you cannot combine type filters with other filters in an OR.');
  const types: NqlNode[] = [];
  const others: NqlNode[] = [];
  for (const child of children) {
    const [type, other] = splitByType(child);
    if (type) types.push(type);
    if (other) others.push(other);
  }
  const join = (parts: NqlNode[]) => (parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { $and: parts });
  return [join(types), join(others)];
}

/** Whether an event kind passes the statements on `type` (Ghost runs them through mingo). */
function typeMatches(node: NqlNode, type: Kind): boolean {
  return Object.entries(node).every(([key, value]) => {
    if (key === '$and') return (value as NqlNode[]).every((child) => typeMatches(child, type));
    if (key === '$or') return (value as NqlNode[]).some((child) => typeMatches(child, type));
    if (key === 'yg') return typeMatches(value as NqlNode, type);
    if (key !== 'type') return false;
    if (value === null || typeof value !== 'object') return value === type;
    const [op, operand] = Object.entries(value as Json)[0] ?? [];
    if (op === '$ne') return operand !== type;
    if (op === '$in') return (operand as unknown[]).includes(type);
    if (op === '$nin') return !(operand as unknown[]).includes(type);
    if (op === '$regex') return (operand as RegExp).test(type);
    if (op === '$not') return !(operand as RegExp).test(type);
    return false;
  });
}

interface ParsedFilter {
  types: NqlNode | null;
  others: NqlNode | null;
}

function parseFeedFilter(filter: string | undefined): ParsedFilter {
  if (!filter) return { types: null, others: null };
  let parsed: NqlNode;
  try {
    parsed = parseNql(filter);
  } catch (err) {
    // Ghost answers with the parser's own message here.
    const cause = (err as { cause?: unknown }).cause;
    throw errors.badRequest(cause instanceof Error ? cause.message : 'Error parsing filter');
  }
  for (const key of keysOf(parsed)) if (!ALLOWED_KEYS.includes(key)) throw errors.incorrectUsage(`Cannot filter by ${key}`);
  const [types, others] = splitByType(parsed);
  return { types, others };
}

/** The statements as one kind's columns (`data.post_id` → the sign-up's post attribution). */
function conditionFor(source: Source, node: NqlNode) {
  const mapped = mapStatements(node, (value, key) =>
    key === 'data.post_id' ? { $and: [{ attribution_id: value }, { attribution_type: 'post' }] } : { [DATA_KEYS[key] ?? key]: value },
  );
  return mapped;
}

type Row = Json & { id: string; created_at: Date; member_id: string };

async function readSource(ctx: Ctx, source: Source, others: NqlNode | null, limit: number | null): Promise<{ rows: Row[]; total: number }> {
  const spec: FilterSpec = { table: source.table, fields: source.fields };
  const cond = others ? new FilterCompiler(spec).compile(conditionFor(source, others)) : null;
  const where = cond ? renderCondition(cond, spec, ctx.engine) : null;
  const base = () => {
    const query = ctx.db.selectFrom(source.table);
    return where ? query.where(where) : query;
  };
  let page = base().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (limit !== null) page = page.limit(limit);
  const [rows, count] = await Promise.all([
    page.execute(),
    base()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as unknown as Row[], total: Number(count.n) };
}

const presentMemberRef = (member: MemberRow | undefined) =>
  member ? { id: member.id, uuid: member.uuid, name: member.name, email: member.email, avatar_image: gravatarUrl(member.email) } : null;

async function byId<T extends { id: string }>(db: ReadDb, table: 'members' | 'newsletters', ids: string[]): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  const rows = (await db
    .selectFrom(table)
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()) as unknown as T[];
  return new Map(rows.map((row) => [row.id, row]));
}

function presentEvent(ctx: Ctx, type: Kind, row: Row, members: Map<string, MemberRow>, newsletters: Map<string, NewsletterRow>) {
  const member = presentMemberRef(members.get(row.member_id));
  const created_at = isoDate(row.created_at);
  if (type === 'signup_event') {
    return {
      type,
      data: {
        id: row.id,
        created_at,
        member_id: row.member_id,
        attribution_id: row.attribution_id,
        attribution_type: row.attribution_type,
        attribution_url: row.attribution_url,
        referrer_source: row.referrer_source,
        referrer_medium: row.referrer_medium,
        referrer_url: row.referrer_url,
        source: row.source,
        member,
        attribution: presentAttribution(row as unknown as MemberCreatedEventRow),
      },
    };
  }
  if (type === 'newsletter_event') {
    const newsletter = newsletters.get(row.newsletter_id as string);
    return {
      type,
      data: {
        id: row.id,
        member_id: row.member_id,
        subscribed: Boolean(row.subscribed),
        created_at,
        source: row.source,
        newsletter_id: row.newsletter_id,
        member,
        newsletter: newsletter ? presentAdminNewsletter(newsletter, ctx.site.url) : null,
      },
    };
  }
  return { type, data: { id: row.id, member_id: row.member_id, to_email: row.to_email, from_email: row.from_email, created_at, member } };
}

export interface FeedRequest {
  /** The raw `limit` (Ghost keeps it as given in `meta`); null means Ghost's default of 10. */
  limit: string | null;
  filter: string | undefined;
}

export async function memberActivityFeed(ctx: Ctx, request: FeedRequest) {
  const { types, others } = parseFeedFilter(request.filter);
  const byPost = others ? keysOf(others).has('data.post_id') : false;
  const sources = SOURCES.filter((source) => (!types || typeMatches(types, source.type)) && (source.byPost || !byPost));
  const limitValue: string | number = request.limit ?? 10;
  // `all` (and 0) read every event but keep none: Ghost slices the merged list with `limit` as given.
  const limit = limitValue === 'all' ? null : Number(limitValue);
  const pages = await Promise.all(sources.map((source) => readSource(ctx, source, others, limit)));
  const events = pages.flatMap((page, i) => page.rows.map((row) => ({ type: sources[i]!.type, row })));
  events.sort((a, b) => b.row.created_at.getTime() - a.row.created_at.getTime() || b.row.id.localeCompare(a.row.id));
  const kept = events.slice(0, limit ?? 0);
  const [members, newsletters] = await Promise.all([
    byId<MemberRow>(
      ctx.db,
      'members',
      kept.map((event) => event.row.member_id),
    ),
    byId<NewsletterRow>(
      ctx.db,
      'newsletters',
      kept.flatMap((event) => (event.row.newsletter_id ? [event.row.newsletter_id as string] : [])),
    ),
  ]);
  const total = pages.reduce((sum, page) => sum + page.total, 0);
  return {
    events: kept.map((event) => presentEvent(ctx, event.type, event.row, members, newsletters)),
    meta: {
      pagination: { limit: limitValue, total, pages: limit ? Math.ceil(total / limit) : null, page: null, next: null, prev: null },
    },
  };
}
