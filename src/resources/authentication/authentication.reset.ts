import { isEmail } from '../../db/string-checks.js';
import type { UserRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { passwordReset } from '../../mail/templates.js';
import { checkResetToken, fromUrlSafe, resetToken, tokenParts, urlSafe } from '../../auth/tokens.js';
import { assertPasswordPolicy, hashPassword } from '../../auth/passwords.js';
import { currentCount, hit, LIMITERS } from '../../auth/brute.js';
import { deleteUserSessions } from '../../auth/sessions.js';
import { currentEmailCode } from '../../auth/device-verification.js';
import { readSettings } from '../../settings/settings.js';
import { findUserByEmail, updateUser } from '../users/users.queries.js';
import type { ResetInput } from './authentication.schemas.js';

const RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TOKEN_LOCK_AFTER = 10;

/** Mails a one-day reset link for the user; the token dies once the password changes. */
export async function sendResetMail({ db, mailer, site: { url: siteUrl }, clock }: Ctx, user: UserRow): Promise<void> {
  const settings = await readSettings(db, ['title', 'db_hash']);
  const token = resetToken(user.email, clock.epochMs() + RESET_LIFETIME_MS, settings.get('db_hash') ?? '', user.password);
  const mail = passwordReset({ siteTitle: settings.get('title') ?? '', siteUrl, link: `${siteUrl}ghost/reset/${urlSafe(token)}/`, email: user.email });
  try {
    await mailer.send({ to: user.email, fromName: settings.get('title') ?? undefined, ...mail });
  } catch (err) {
    throw errors.email({
      message: `Failed to send email. Reason: ${(err as Error).message}.`,
      help: 'Please see https://ghost.org/docs/config/#mail for instructions on configuring email.',
      cause: err,
    });
  }
}

/** `POST /authentication/password_reset/`: the link goes to the address on file. */
export async function requestReset(ctx: Ctx, email: unknown): Promise<void> {
  if (typeof email !== 'string' || !isEmail(email)) throw errors.badRequest('The server did not receive a valid email');
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw errors.notFound('User not found.');
  await sendResetMail(ctx, user);
}

const corrupt = () =>
  errors.unauthorized({
    message: 'Cannot reset password.',
    context: 'Invalid password reset link.',
    help: 'Check if password reset link has been fully copied or request new password reset via the login form.',
  });

/**
 * `PUT /authentication/password_reset/`: a valid, unexpired, unused token sets the new password,
 * re-activates the user and ends their sessions. Ten wrong tokens for one address and expiry lock it.
 * Returns the user's current sign-in code so the client can log in without a second e-mail.
 */
export async function completeReset(ctx: Ctx, data: ResetInput): Promise<{ user: UserRow; emailVerificationToken: string }> {
  const { db } = ctx;
  const token = typeof data.token === 'string' ? fromUrlSafe(data.token) : '';
  const parts = token ? tokenParts(token) : null;
  if (!parts) throw corrupt();
  const lockKey = `${parts.email.toLowerCase()}+${parts.expires}`;
  if ((await currentCount(db, LIMITERS.resetToken, '', lockKey, ctx.clock.epochMs())) >= TOKEN_LOCK_AFTER) throw errors.noPermission('Token locked');
  const user = await findUserByEmail(db, parts.email);
  if (!user) throw errors.notFound('User not found.');
  const settings = await readSettings(db, ['db_hash', 'title']);
  const check = checkResetToken(token, settings.get('db_hash') ?? '', user.password, ctx.clock.epochMs());
  if (!check.ok) {
    if (check.reason === 'expired') {
      throw errors.badRequest({
        message: 'Cannot reset password.',
        context: 'Password reset link expired.',
        help: 'Request a new password reset via the login form.',
      });
    }
    await hit(ctx.autocommitDb, LIMITERS.resetToken, '', lockKey, ctx.clock.epochMs());
    throw errors.badRequest({
      message: 'Cannot reset password.',
      context: 'Password reset link has already been used.',
      help: 'Request a new password reset via the login form.',
    });
  }
  const password = String(data.newPassword);
  assertPasswordPolicy(password, { email: user.email, siteTitle: settings.get('title') ?? undefined, siteUrl: ctx.site.url });
  const hash = await hashPassword(password);
  await ctx.write(async ({ db: trx, clock }) => {
    await updateUser(trx, user.id, { password: hash, status: 'active', updated_at: clock.now() });
    await deleteUserSessions(trx, user.id);
  });
  return { user, emailVerificationToken: await currentEmailCode(ctx.autocommitDb, user.id, ctx.clock.now()) };
}
