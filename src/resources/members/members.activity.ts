import type { Ctx, WriteCtx } from '../../ctx.js';
import type { MemberCreatedEventRow, MemberEventSource, MemberRow } from '../../db/schema.js';
import type { MemberAttribution } from './members.present.js';
import { objectId } from '../../db/ids.js';
import { readSetting } from '../../settings/settings.js';

/**
 * The rows Ghost's member repository writes beside a member change, read back by the activity feed
 * (`members.activity-feed.ts`): a sign-up, a status change, one subscription event per newsletter joined
 * or left, an e-mail change. Written through the write's transaction, so they exist exactly when the
 * change does. Bulk edits and imports write none, as in Ghost.
 */

/** Ghost's `_resolveContextSource`: an API key (integration or staff token) before a staff user. */
export function memberEventSource(ctx: Ctx): MemberEventSource {
  if (ctx.actor?.apiKey) return 'api';
  if (ctx.actor?.user) return 'admin';
  return 'system';
}

/**
 * Ghost's attribution of a member made through the Admin API (`getAttributionFromContext`): who made it,
 * when the site tracks sources. Nothing else (a post, a referrer) is known without member sign-up.
 */
async function referrerOf(w: WriteCtx, source: MemberEventSource): Promise<{ referrer_source: string; referrer_medium: string } | null> {
  if ((source !== 'api' && source !== 'admin') || (await readSetting(w.db, 'members_track_sources')) === 'false') return null;
  const integrationId = w.actor?.apiKey?.integration_id;
  const integration = integrationId ? await w.db.selectFrom('integrations').select('name').where('id', '=', integrationId).executeTakeFirst() : undefined;
  if (integration) return { referrer_source: `Integration: ${integration.name}`, referrer_medium: 'Admin API' };
  return source === 'api'
    ? { referrer_source: 'Created via API', referrer_medium: 'Admin API' }
    : { referrer_source: 'Created manually', referrer_medium: 'Ghost Admin' };
}

/** What a new member gets: its first status, a subscription to each of its newsletters and its sign-up. */
export async function recordMemberCreated(w: WriteCtx, member: Pick<MemberRow, 'id' | 'status' | 'created_at'>, newsletterIds: readonly string[]) {
  const source = memberEventSource(w);
  const at = member.created_at;
  const referrer = await referrerOf(w, source);
  await w.db
    .insertInto('members_status_events')
    .values({ id: objectId(), member_id: member.id, from_status: null, to_status: member.status, created_at: at })
    .execute();
  await recordSubscriptions(w, member.id, { added: newsletterIds, removed: [] }, at);
  // Last, as Ghost records it after the member's other rows (the feed orders same-time events by id).
  await w.db
    .insertInto('members_created_events')
    .values({
      id: objectId(),
      created_at: at,
      member_id: member.id,
      attribution_id: null,
      attribution_type: null,
      attribution_url: null,
      referrer_source: referrer?.referrer_source ?? null,
      referrer_medium: referrer?.referrer_medium ?? null,
      referrer_url: null,
      source,
      batch_id: objectId(),
    })
    .execute();
}

/** One event per newsletter joined (`subscribed: true`) or left. */
export async function recordSubscriptions(
  w: WriteCtx,
  memberId: string,
  change: { added: readonly string[]; removed: readonly string[] },
  at: Date = w.clock.now(),
) {
  const source = memberEventSource(w);
  const rows = [
    ...change.added.map((newsletter_id) => ({ newsletter_id, subscribed: true })),
    ...change.removed.map((newsletter_id) => ({ newsletter_id, subscribed: false })),
  ].map((row) => ({ id: objectId(), member_id: memberId, created_at: at, source, ...row }));
  if (rows.length > 0) await w.db.insertInto('members_subscribe_events').values(rows).execute();
}

/** After an edit: the e-mail and status changes Ghost records (subscriptions are recorded as they are set). */
export async function recordMemberChanges(w: WriteCtx, before: Pick<MemberRow, 'id' | 'email' | 'status'>, after: Pick<MemberRow, 'email' | 'status'>) {
  const at = w.clock.now();
  if (after.email !== before.email) {
    await w.db
      .insertInto('members_email_change_events')
      .values({ id: objectId(), member_id: before.id, from_email: before.email, to_email: after.email, created_at: at })
      .execute();
  }
  if (after.status !== before.status) {
    await w.db
      .insertInto('members_status_events')
      .values({ id: objectId(), member_id: before.id, from_status: before.status, to_status: after.status, created_at: at })
      .execute();
  }
}

/** The attribution of these members' sign-ups, as read, add and edit show it. */
export async function attributionsOf(db: Ctx['db'], memberIds: readonly string[]): Promise<Map<string, MemberAttribution>> {
  if (memberIds.length === 0) return new Map();
  const rows = await db.selectFrom('members_created_events').selectAll().where('member_id', 'in', memberIds).execute();
  return new Map(rows.map((row) => [row.member_id, presentAttribution(row)]));
}

/** Ghost's attribution object; `title` names the post, page, tag or author that brought the member (none here). */
export function presentAttribution(row: MemberCreatedEventRow): MemberAttribution {
  return {
    id: row.attribution_id,
    type: row.attribution_type,
    url: row.attribution_url,
    title: null,
    referrer_source: row.referrer_source,
    referrer_medium: row.referrer_medium,
    referrer_url: row.referrer_url,
  };
}
