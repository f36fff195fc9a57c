import type { Ctx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { readSetting } from '../../settings/settings.js';
import { attributionsOf } from './members.activity.js';
import { findMember, relationsOfMembers } from './members.queries.js';
import { presentMember } from './members.present.js';

/**
 * Browse shows tiers only when asked; read, add and edit always show them, and the member's attribution
 * (Ghost's member BREAD service).
 */
export async function presentMembers(ctx: Ctx, rows: MemberRow[], include: readonly string[], alwaysTiers: boolean) {
  const ids = rows.map((row) => row.id);
  const [relations, validationKey, attributions] = await Promise.all([
    relationsOfMembers(ctx.db, ids),
    readSetting(ctx.db, 'members_email_auth_secret'),
    alwaysTiers ? attributionsOf(ctx.db, ids) : undefined,
  ]);
  const view = {
    siteUrl: ctx.site.url,
    validationKey: validationKey ?? '',
    withTiers: alwaysTiers || include.includes('tiers') || include.includes('products'),
    withEmailRecipients: include.includes('email_recipients'),
    now: ctx.clock.now(),
    ...(attributions ? { attributions } : {}),
  };
  return rows.map((row) => presentMember(row, relations, view));
}

/** Load and present one member as read, add and edit answer it. */
export async function presentMemberById(ctx: Ctx, id: string, include: readonly string[]) {
  const row = await findMember(ctx.db, id);
  if (!row) throw errors.notFound('Member not found.');
  return presentMembers(ctx, [row], include, true);
}
