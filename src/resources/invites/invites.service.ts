import type { InviteRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { canInviteRole } from '../../auth/staff-rules.js';
import { inviteToken, tokenHash, urlSafe } from '../../auth/tokens.js';
import { invitation } from '../../mail/templates.js';
import { readSettings } from '../../settings/settings.js';
import { emailTaken, findRole } from '../users/users.queries.js';
import { deleteInvite, replaceInvite } from './invites.queries.js';
import { checkColumns } from '../../db/column-rules.js';
import { INVITE_RULES } from './invites.rules.js';
import type { InviteInput } from './invites.schemas.js';

const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * `POST /invites/`: checks in Ghost's order (registered e-mail, role rules, the model's columns), then
 * the e-mail, then one transaction replacing any earlier invitation to that address. Sending first means
 * a refused message leaves the earlier invitation (and the database) as it was.
 */
export async function addInvite(ctx: Ctx, input: InviteInput): Promise<InviteRow> {
  const {
    db,
    mailer,
    site: { url: siteUrl },
  } = ctx;
  const actor = actorOf(ctx);
  const email = String(input.email);
  if (await emailTaken(db, email)) throw errors.validation('User is already registered.');
  const role = typeof input.role_id === 'string' ? await findRole(db, input.role_id) : undefined;
  if (!role) throw errors.notFound('Role not found');
  if (!canInviteRole(actor, role.name)) throw errors.noPermission('You do not have permission to add invites');
  checkColumns(INVITE_RULES, { email });

  const settings = await readSettings(db, ['title', 'db_hash']);
  const title = settings.get('title') ?? '';
  const expires = ctx.clock.epochMs() + INVITE_LIFETIME_MS;
  const token = inviteToken(email, expires, settings.get('db_hash') ?? '');
  const mail = invitation({
    siteTitle: title,
    siteUrl,
    inviterName: actor.user?.name ?? null,
    inviterEmail: actor.user?.email ?? null,
    link: `${siteUrl}ghost/signup/${urlSafe(token)}/`,
    email,
  });
  try {
    await mailer.send({ to: email, replyTo: actor.user?.email, fromName: title || undefined, ...mail });
  } catch (err) {
    throw errors.email({
      message: `Error sending email: Failed to send email. Reason: ${(err as Error).message}. Please check your email settings and resend the invitation.`,
      help: 'Please see https://ghost.org/docs/config/#mail for instructions on configuring email.',
      cause: err,
    });
  }

  const at = ctx.clock.now();
  const invite: InviteRow = {
    id: objectId(),
    role_id: role.id,
    status: 'sent',
    token_hash: tokenHash(token),
    email,
    expires,
    created_at: at,
    created_by: ctx.actingUserId,
    updated_at: at,
    updated_by: ctx.actingUserId,
  };
  await ctx.write(({ db: trx }) => replaceInvite(trx, invite));
  return invite;
}

/** `DELETE /invites/:id/`: 404 when there is no such invitation. */
export async function destroyInvite(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async (w) => {
    if (!(await deleteInvite(w.db, id))) throw errors.notFound();
  });
}
