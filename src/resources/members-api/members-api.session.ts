import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { readSettings } from '../../settings/settings.js';
import { memberUuidKey, sameKey, sessionTransientId, verifyIdentityToken } from '../../auth/member-session.js';
import { relationsOfMembers, type MemberRelations } from '../members/members.queries.js';
import { presentMember } from '../members/members.present.js';
import { findMemberByTransientId, findMemberByUuid, findMemberWithEmail } from './members-api.queries.js';

/**
 * Who the signed-in member is: the `ghost-members-ssr` cookie (checked against its `.sig`) names the member's
 * `transient_id`. Everything is read from the database, so any instance answers for any session.
 */

export interface MemberKeys {
  /** `theme_session_secret`: signs the session cookie. */
  cookieSecret: string;
  /** `members_private_key`: signs identity tokens. */
  privateKey: string;
  /** `members_email_auth_secret`: keys unsubscribe links. */
  validationKey: string;
}

export async function memberKeys(ctx: Pick<Ctx, 'db'>): Promise<MemberKeys> {
  const s = await readSettings(ctx.db, ['theme_session_secret', 'members_private_key', 'members_email_auth_secret']);
  return {
    cookieSecret: s.get('theme_session_secret') ?? '',
    privateKey: s.get('members_private_key') ?? '',
    validationKey: s.get('members_email_auth_secret') ?? '',
  };
}

/** Issuer and audience of identity tokens: `<site>/members/api` (no trailing slash, as Ghost's urlFor gives it). */
export const identityIssuer = (siteUrl: string) => new URL('members/api', siteUrl).toString();

export async function memberByTransientId(ctx: Pick<Ctx, 'db'>, transientId: string): Promise<MemberRow | null> {
  return (await findMemberByTransientId(ctx.db, transientId)) ?? null;
}

/** The member of a request's session cookie, or null (no cookie, a forged one, a session ended by sign-out everywhere). */
export async function sessionMember(ctx: Pick<Ctx, 'db'>, cookieHeader: string | undefined): Promise<MemberRow | null> {
  if (!cookieHeader || !cookieHeader.includes('ghost-members-ssr')) return null;
  const { cookieSecret } = await memberKeys(ctx);
  const transientId = sessionTransientId(cookieHeader, cookieSecret);
  return transientId ? memberByTransientId(ctx, transientId) : null;
}

/** A signed-in member with what templates and gating need. */
export interface CurrentMember {
  row: MemberRow;
  /** Ids of the tiers the member holds (comped tiers here: paid ones need Stripe). */
  tierIds: string[];
  /** Ghost's member data (`GET /members/api/member/`), which themes see as `@member`. */
  data: MemberData;
}

export type MemberData = ReturnType<typeof memberData>;

/** Ghost's formattedMemberResponse, from a member and its relations. */
export function memberData(ctx: Pick<Ctx, 'site' | 'clock'>, row: MemberRow, relations: MemberRelations, validationKey: string) {
  const admin = presentMember(row, relations, { siteUrl: ctx.site.url, validationKey, withTiers: false, withEmailRecipients: false, now: ctx.clock.now() });
  const newsletters = relations.newsletters.get(row.id) ?? [];
  return {
    uuid: row.uuid,
    email: row.email,
    name: row.name,
    firstname: row.name ? (row.name.split(' ')[0] ?? null) : null,
    expertise: row.expertise,
    avatar_image: admin.avatar_image,
    unsubscribe_url: admin.unsubscribe_url,
    // Ghost reads a `subscribed` column that 5.0 dropped: its Members API always says false.
    subscribed: false,
    subscriptions: admin.subscriptions,
    paid: row.status !== 'free',
    created_at: admin.created_at,
    enable_comment_notifications: row.enable_comment_notifications,
    newsletters: newsletters.map((n) => ({ id: n.id, uuid: n.uuid, name: n.name, description: n.description, sort_order: n.sort_order })),
    email_suppression: { suppressed: row.email_disabled, info: null },
  };
}

export async function currentMember(ctx: Pick<Ctx, 'db' | 'site' | 'clock'>, row: MemberRow): Promise<CurrentMember> {
  const relations = await relationsOfMembers(ctx.db, [row.id]);
  const { validationKey } = await memberKeys(ctx);
  return { row, tierIds: (relations.tiers.get(row.id) ?? []).map((t) => t.id), data: memberData(ctx, row, relations, validationKey) };
}

/**
 * The member a site request comes from, for `@member` in themes and for gating: the session cookie's
 * member, or null. `request` needs only its headers. The site engineer's renderer gets this function from
 * app.ts (the site layer does not import resources).
 */
export async function memberFromRequest(
  ctx: Pick<Ctx, 'db' | 'site' | 'clock'>,
  request: { headers: { cookie?: string | undefined } },
): Promise<CurrentMember | null> {
  const row = await sessionMember(ctx, request.headers.cookie);
  return row ? currentMember(ctx, row) : null;
}

/**
 * Beyond Ghost: the member named by an identity token (`Authorization: Bearer <token>` on the Content API,
 * with `MEMBERS_BEARER_TOKENS`), or null when the token is not valid (signature, issuer, audience, expiry).
 */
export async function memberFromIdentityToken(ctx: Pick<Ctx, 'db' | 'site' | 'clock'>, token: string): Promise<CurrentMember | null> {
  const { privateKey } = await memberKeys(ctx);
  const email = verifyIdentityToken(privateKey, identityIssuer(ctx.site.url), token, ctx.clock.epochMs());
  if (!email) return null;
  const row = await findMemberWithEmail(ctx.db, email);
  return row ? currentMember(ctx, row) : null;
}

/**
 * The member a mailed link names (`?uuid=&key=`, the key being the uuid's HMAC, as unsubscribe and feedback links
 * carry them), or else the signed-in member; Ghost's 401s otherwise.
 */
export async function memberFromLinkOrSession(request: FastifyRequest<{ Querystring: Record<string, unknown> }>): Promise<MemberRow> {
  const { uuid, key } = request.query;
  if (typeof uuid !== 'string' || !uuid) {
    const member = await sessionMember(request.ctx, request.headers.cookie);
    if (member) return member;
    throw errors.unauthorized('Missing uuid.');
  }
  if (typeof key !== 'string' || !key) throw errors.unauthorized('Invalid key.');
  const { validationKey } = await memberKeys(request.ctx);
  if (!sameKey(memberUuidKey(uuid, validationKey), key)) throw errors.unauthorized('Invalid key.');
  const member = await findMemberByUuid(request.ctx.db, uuid);
  if (!member) throw errors.unauthorized('Invalid uuid.');
  return member;
}
