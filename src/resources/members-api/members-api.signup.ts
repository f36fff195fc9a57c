import type { Ctx, WriteCtx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { findMember, findMemberByEmail, signupNewsletterIds } from '../members/members.queries.js';
import { newMemberRow } from '../members/members.service.js';
import { resolveLabels, setMemberLabels, setMemberNewsletters } from '../members/members.relations.js';
import { recordMemberAdded } from '../members/members.events.js';
import { TokenRefused, useMagicToken, type Attribution, type MagicLinkData } from './members-api.tokens.js';
import {
  activeNewslettersAmong,
  insertCreatedEvent,
  insertEmailChangeEvent,
  insertLoginEvent,
  insertMember,
  insertStatusEvent,
  insertSubscribeEvents,
  updateMember,
} from './members-api.queries.js';

/**
 * Ghost's getMemberDataFromMagicLinkToken: the member a magic link signs in, made on first use of a sign-up
 * link, with its e-mail changed by an `updateEmail` link. Each sign-in records a login event.
 */
export async function memberFromMagicLink(ctx: Ctx, token: string): Promise<MemberRow | null> {
  let data: MagicLinkData;
  try {
    data = await useMagicToken(ctx, token);
  } catch (err) {
    if (err instanceof TokenRefused) return null;
    throw err;
  }
  const { email, oldEmail, type } = data;
  if (typeof email !== 'string' || !email) return null;
  return ctx.write(async (w) => {
    const found = await findMemberByEmail(w.db, w.engine, typeof oldEmail === 'string' && oldEmail ? oldEmail : email);
    if (found) {
      await recordLogin(w, found.id);
      if (oldEmail && (!type || type === 'updateEmail')) await changeEmail(w, found.id, email);
      return (await findMember(w.db, found.id)) ?? null;
    }
    // The type inside the token decides: a sign-in link never makes a member.
    if (type && type !== 'signup' && type !== 'subscribe') return null;
    const id = await createMember(w, email, data);
    await recordLogin(w, id);
    return (await findMember(w.db, id)) ?? null;
  });
}

async function recordLogin(w: WriteCtx, memberId: string): Promise<void> {
  await insertLoginEvent(w.db, { id: objectId(), member_id: memberId, created_at: w.clock.now() });
}

async function changeEmail(w: WriteCtx, memberId: string, email: string): Promise<void> {
  const member = await findMember(w.db, memberId);
  if (!member || member.email === email) return;
  // Someone took the address since the link was sent: the change is dropped, the member keeps the old one.
  if (await findMemberByEmail(w.db, w.engine, email, memberId)) return;
  const at = w.clock.now();
  await updateMember(w.db, memberId, { email, updated_at: at });
  await insertEmailChangeEvent(w.db, { id: objectId(), member_id: memberId, from_email: member.email, to_email: email, created_at: at });
}

/**
 * A member signed up through the Members API: free, with the labels and newsletters the form named (the
 * sign-up newsletters otherwise), its sign-up attributed as Ghost attributes it (`source: member`), and the
 * `member.added` webhook event in the same transaction.
 */
async function createMember(w: WriteCtx, email: string, data: MagicLinkData): Promise<string> {
  const at = w.clock.now();
  const row = newMemberRow(w, {
    email,
    status: 'free',
    name: typeof data.name === 'string' && data.name ? data.name : null,
    note: null,
    created_at: at,
    updated_at: at,
  });
  await insertMember(w.db, row);
  const labels = Array.isArray(data.labels) ? data.labels.filter((l): l is string => typeof l === 'string') : [];
  if (labels.length > 0) await setMemberLabels(w, row.id, await resolveLabels(w, labels));
  const wanted = Array.isArray(data.newsletters) ? data.newsletters.map((n) => n.id) : (await signupNewsletterIds(w.db)).map((n) => n.id);
  // A newsletter archived or deleted since the link was sent is skipped.
  const live = wanted.length > 0 ? (await activeNewslettersAmong(w.db, wanted)).map((n) => n.id) : [];
  const { added } = await setMemberNewsletters(w, row.id, live);
  await insertStatusEvent(w.db, { id: objectId(), member_id: row.id, from_status: null, to_status: 'free', created_at: at });
  if (added.length > 0) {
    await insertSubscribeEvents(
      w.db,
      added.map((newsletter_id) => ({ id: objectId(), member_id: row.id, newsletter_id, subscribed: true, created_at: at, source: 'member' as const })),
    );
  }
  const a: Attribution = data.attribution ?? { id: null, type: null, url: null, referrer_source: null, referrer_medium: null, referrer_url: null };
  await insertCreatedEvent(w.db, {
    id: objectId(),
    created_at: at,
    member_id: row.id,
    attribution_id: a.id,
    attribution_type: a.type,
    attribution_url: a.url,
    referrer_source: a.referrer_source,
    referrer_medium: a.referrer_medium,
    referrer_url: a.referrer_url,
    source: 'member',
    batch_id: null,
  });
  await recordMemberAdded(w, row.id, { labels: labels.length > 0 });
  return row.id;
}
