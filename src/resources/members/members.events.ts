import type { WriteCtx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { readSetting } from '../../settings/settings.js';
import { presentTierRelation } from '../tiers/tiers.present.js';
import { findMember, relationsOfMembers, type MemberRelations } from './members.queries.js';
import { presentMember } from './members.present.js';
import { anyWebhookListens } from '../../events/listeners.js';
import { previousValues, type EventName } from '../../events/names.js';

/**
 * Ghost's member webhook events, recorded in the write's transaction: `member.added`, `member.edited`,
 * `member.deleted` with the payload `{member: {current, previous}}`. Ghost serialises the member model as
 * the write left it, so a payload has only the relations that write loaded (checked against Ghost 5.130.6):
 * - added: `labels` only when the body gave labels; `tiers` always, as product rows; no `attribution`,
 *   `unsubscribe_url`, `email_suppression`; `subscriptions` empty (the model has no Stripe subscriptions);
 * - edited: `labels` always, `tiers` only when the body gave tiers; fired only when a column, the labels
 *   or the newsletters changed; `previous` holds the prior values of exactly those keys;
 * - deleted: `current` is `{}`, `previous` the prior labels and columns, unserialised.
 * Bulk edits and bulk deletes fire nothing: Ghost writes them as raw queries, below its model events.
 */

type Payload = Record<string, unknown>;

const EVENTS = ['member.added', 'member.edited', 'member.deleted'] as const satisfies readonly EventName[];

/** The member's columns as the deleted event lists them, in the model's attribute order. */
const DELETED_COLUMNS = [
  'id',
  'uuid',
  'email',
  'status',
  'name',
  'note',
  'geolocation',
  'email_count',
  'email_opened_count',
  'email_open_rate',
  'last_seen_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof MemberRow)[];

/** What `previous` of an edit can hold: the serialised columns and the two relations an edit compares. */
const EDITABLE_KEYS = [
  'email',
  'name',
  'note',
  'geolocation',
  'status',
  'email_count',
  'email_opened_count',
  'email_open_rate',
  'last_seen_at',
  'created_at',
  'updated_at',
  'labels',
  'newsletters',
] as const;

/** Whether any webhook listens to member events (otherwise nothing is serialised). */
const listened = (w: WriteCtx) => anyWebhookListens(w.db, EVENTS);

/** A member as its webhook sees it: the row and its relations. */
export interface MemberState {
  row: MemberRow;
  relations: MemberRelations;
}

async function stateOf(w: WriteCtx, id: string): Promise<MemberState | null> {
  const row = await findMember(w.db, id);
  return row ? { row, relations: await relationsOfMembers(w.db, [id]) } : null;
}

/** The members serializer's shape with the relations the write loaded (see the header). */
async function serialised(w: WriteCtx, { row, relations }: MemberState, with_: { labels: boolean; tiers: boolean }): Promise<Payload> {
  const validationKey = (await readSetting(w.db, 'members_email_auth_secret')) ?? '';
  const api = presentMember(row, relations, { siteUrl: w.site.url, validationKey, withTiers: false, withEmailRecipients: false, now: w.clock.now() });
  const tiers = (relations.tiers.get(row.id) ?? []).map((tier) => presentTierRelation(tier, tier.currency?.toUpperCase() ?? null));
  return {
    id: api.id,
    uuid: api.uuid,
    email: api.email,
    name: api.name,
    note: api.note,
    geolocation: api.geolocation,
    subscribed: api.subscribed,
    created_at: api.created_at,
    updated_at: api.updated_at,
    ...(with_.labels ? { labels: api.labels } : {}),
    subscriptions: [],
    avatar_image: api.avatar_image,
    comped: api.comped,
    email_count: api.email_count,
    email_opened_count: api.email_opened_count,
    email_open_rate: api.email_open_rate,
    status: api.status,
    last_seen_at: api.last_seen_at,
    ...(with_.tiers ? { tiers } : {}),
    newsletters: api.newsletters,
  };
}

function record(w: WriteCtx, name: (typeof EVENTS)[number], id: string, current: Payload, previous: Payload): void {
  w.events.record(name, { member: { current, previous } }, { type: 'member', id });
}

export async function recordMemberAdded(w: WriteCtx, id: string, given: { labels: boolean }): Promise<void> {
  if (!(await listened(w))) return;
  record(w, 'member.added', id, await serialised(w, (await stateOf(w, id))!, { labels: given.labels, tiers: true }), {});
}

/** Taken before an edit or delete changes the member: what `previous` is made from. */
export async function beforeMemberChange(w: WriteCtx, id: string): Promise<MemberState | null> {
  return (await listened(w)) ? stateOf(w, id) : null;
}

export async function recordMemberEdited(w: WriteCtx, id: string, before: MemberState | null, given: { tiers: boolean }): Promise<void> {
  if (!before) return;
  const after = (await stateOf(w, id))!;
  const [was, is] = [await serialised(w, before, { labels: true, tiers: false }), await serialised(w, after, { labels: true, tiers: given.tiers })];
  const previous = previousValues(was, is, { keys: EDITABLE_KEYS });
  if (Object.keys(previous).length === 0) return;
  record(w, 'member.edited', id, is, previous);
}

export async function recordMemberDeleted(w: WriteCtx, id: string, before: MemberState | null): Promise<void> {
  if (!before) return;
  const labels = (await serialised(w, before, { labels: true, tiers: false })).labels;
  const columns = DELETED_COLUMNS.map((key) => {
    const value = before.row[key];
    return [key, value instanceof Date ? isoDate(value) : value];
  });
  record(w, 'member.deleted', id, {}, { labels, ...Object.fromEntries(columns) });
}
