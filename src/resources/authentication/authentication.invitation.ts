import { isEmail } from '../../db/string-checks.js';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { fromUrlSafe, tokenHash } from '../../auth/tokens.js';
import { assertPasswordPolicy, hashPassword } from '../../auth/passwords.js';
import { generateSlug } from '../../content/slugs.js';
import { readSetting } from '../../settings/settings.js';
import { emailTaken } from '../users/users.queries.js';
import { findSentInviteByTokenHash } from '../invites/invites.queries.js';
import { checkColumns } from '../../db/column-rules.js';
import { assertNameGiven, USER_RULES } from '../users/users.rules.js';
import type { AcceptInput } from './authentication.schemas.js';

export function assertEmail(email: unknown): string {
  if (typeof email !== 'string' || !isEmail(email)) throw errors.badRequest('The server did not receive a valid email');
  return email;
}

/**
 * `POST /authentication/invitation/`: the link's token finds a sent, unexpired invitation; a new active
 * user with the invited role is created and the invitation is used up, in one transaction. As in Ghost
 * the account may use another address than the one invited: the token is the proof.
 */
export async function acceptInvitation(ctx: Ctx, data: AcceptInput): Promise<void> {
  const { db } = ctx;
  const invite = await findSentInviteByTokenHash(db, tokenHash(fromUrlSafe(String(data.token))));
  if (!invite) throw errors.notFound('Invite not found.');
  if (invite.expires < ctx.clock.epochMs()) throw errors.notFound('Invite is expired.');
  const email = String(data.email);
  const name = String(data.name).trim();
  if (await emailTaken(db, email)) {
    throw errors.validation({
      message: 'Could not create an account, email is already in use.',
      context: 'Attempting to create an account with existing email address.',
      help: 'Use different email address to register your account.',
    });
  }
  assertNameGiven(name);
  const password = String(data.password);
  assertPasswordPolicy(password, { email, siteTitle: (await readSetting(db, 'title')) ?? undefined, siteUrl: ctx.site.url });
  checkColumns(USER_RULES, { name, email });
  const hash = await hashPassword(password);

  await ctx.write(async ({ db: trx, clock, actingUserId }) => {
    // Two acceptances racing: only the one that removes the invitation creates an account.
    const { numDeletedRows } = await trx.deleteFrom('invites').where('id', '=', invite.id).where('status', '=', 'sent').executeTakeFirst();
    if (numDeletedRows === 0n) throw errors.notFound('Invite not found.');
    const slug = await generateSlug(name, {
      kind: 'user',
      shortSlug: true,
      taken: async (candidate) => !!(await trx.selectFrom('users').select('id').where('slug', '=', candidate).executeTakeFirst()),
    });
    const at = clock.now();
    const id = objectId();
    await trx
      .insertInto('users')
      .values({
        id,
        name,
        slug,
        password: hash,
        email,
        profile_image: null,
        cover_image: null,
        bio: null,
        website: null,
        location: null,
        facebook: null,
        twitter: null,
        threads: null,
        bluesky: null,
        mastodon: null,
        tiktok: null,
        youtube: null,
        instagram: null,
        linkedin: null,
        accessibility: null,
        status: 'active',
        locale: null,
        visibility: 'public',
        meta_title: null,
        meta_description: null,
        tour: null,
        last_seen: null,
        comment_notifications: true,
        free_member_signup_notification: true,
        paid_subscription_started_notification: true,
        paid_subscription_canceled_notification: false,
        mention_notifications: true,
        recommendation_notifications: true,
        milestone_notifications: true,
        donation_notifications: true,
        created_at: at,
        created_by: actingUserId,
        updated_at: at,
        updated_by: actingUserId,
      })
      .execute();
    await trx.insertInto('roles_users').values({ id: objectId(), role_id: invite.role_id, user_id: id }).execute();
  });
}
