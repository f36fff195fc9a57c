import type { Ctx, WriteCtx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { objectId, uuid } from '../../db/ids.js';
import { errors } from '../../errors.js';
import { setMemberNewsletters } from '../members/members.relations.js';
import { signupNewsletterIds } from '../members/members.queries.js';
import { beforeMemberChange, recordMemberEdited } from '../members/members.events.js';
import { activeNewslettersAmong, insertSubscribeEvents, updateMember } from './members-api.queries.js';
import { activeNewslettersOfMember } from '../members/members.queries.js';

/**
 * What a member may change about themselves (`PUT /member/`, and `PUT /member/newsletters/` from an
 * unsubscribe link): name, expertise, newsletters (or `subscribed`), comment notifications. Subscription
 * changes are recorded with `source: member`, and `member.edited` is recorded for webhooks.
 */
export interface MemberSelfEdit {
  name?: unknown;
  expertise?: unknown;
  subscribed?: unknown;
  newsletters?: unknown;
  enable_comment_notifications?: unknown;
}

function text(value: unknown, field: string, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== 'string')
    throw errors.validation({ message: `Validation error, cannot edit member.`, context: `${field} must be a string`, property: field });
  if (value.length > max)
    throw errors.validation({
      message: `Validation error, cannot edit member.`,
      context: `Value in [members.${field}] exceeds maximum length of ${max} characters.`,
      property: field,
    });
  return value;
}

/** The newsletter ids named, each an existing active newsletter (others are refused). */
async function newsletterIds(w: WriteCtx, value: unknown): Promise<string[]> {
  if (!Array.isArray(value)) throw errors.badRequest('newsletters must be a list');
  const ids = value.map((item: unknown) => (item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined));
  if (ids.some((id) => typeof id !== 'string')) throw errors.badRequest('newsletters must name each newsletter by id');
  const wanted = [...new Set(ids as string[])];
  if (wanted.length === 0) return [];
  const found = await activeNewslettersAmong(w.db, wanted);
  if (found.length !== wanted.length) throw errors.notFound('Could not find Newsletter');
  return wanted;
}

async function activeNewsletterIds(w: WriteCtx, memberId: string): Promise<string[]> {
  const rows = await activeNewslettersOfMember(w.db, memberId);
  return rows.map((r) => r.id);
}

export async function editSelf(ctx: Ctx, member: MemberRow, input: MemberSelfEdit, allowed: readonly (keyof MemberSelfEdit)[]): Promise<void> {
  const given = (key: keyof MemberSelfEdit) => allowed.includes(key) && input[key] !== undefined;
  await ctx.write(async (w) => {
    const before = await beforeMemberChange(w, member.id);
    const update: Partial<MemberRow> = {};
    if (given('name')) update.name = text(input.name, 'name', 191);
    if (given('expertise')) update.expertise = text(input.expertise, 'expertise', 191);
    if (given('enable_comment_notifications')) update.enable_comment_notifications = input.enable_comment_notifications === true;
    let wanted: string[] | null = null;
    if (given('newsletters')) wanted = await newsletterIds(w, input.newsletters);
    else if (given('subscribed') && input.subscribed === false) wanted = [];
    else if (given('subscribed') && input.subscribed === true && (await activeNewsletterIds(w, member.id)).length === 0) {
      wanted = (await signupNewsletterIds(w.db)).map((n) => n.id);
    }
    const at = w.clock.now();
    if (wanted) {
      const change = await setMemberNewsletters(w, member.id, wanted);
      const rows = [
        ...change.added.map((newsletter_id) => ({ newsletter_id, subscribed: true })),
        ...change.removed.map((newsletter_id) => ({ newsletter_id, subscribed: false })),
      ].map((row) => ({ id: objectId(), member_id: member.id, created_at: at, source: 'member' as const, ...row }));
      if (rows.length > 0) await insertSubscribeEvents(w.db, rows);
    }
    if (Object.keys(update).length > 0) {
      await updateMember(w.db, member.id, { ...update, updated_at: at });
    }
    await recordMemberEdited(w, member.id, before, { tiers: false });
  });
}

/** `DELETE /member/suppression/`: mail may go to the member again. */
export async function unsuppress(ctx: Ctx, member: MemberRow): Promise<void> {
  await ctx.write(async (w) => {
    await updateMember(w.db, member.id, { email_disabled: false, updated_at: w.clock.now() });
  });
}

/** Sign-out everywhere: a new transient id, so every session cookie naming the old one stops working. */
export async function cycleTransientId(ctx: Ctx, memberId: string): Promise<void> {
  await ctx.write(async (w) => {
    await updateMember(w.db, memberId, { transient_id: uuid() });
  });
}

/**
 * Ghost's `last_seen_at`: moved on a member's visit at most once a day (in the site's timezone in Ghost; by
 * UTC day here), so a busy reader costs one write a day.
 */
export async function touchLastSeen(ctx: Ctx, member: MemberRow): Promise<void> {
  const now = ctx.clock.now();
  const last = member.last_seen_at ? new Date(member.last_seen_at) : null;
  if (last && last.toISOString().slice(0, 10) === now.toISOString().slice(0, 10)) return;
  await ctx.write(async (w) => {
    await updateMember(w.db, member.id, { last_seen_at: now });
  });
}
