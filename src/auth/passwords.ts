import { errors } from '../errors.js';
import { runInWorker } from '../workers/pool.js';

/** A Ghost-compatible bcrypt hash, made on the worker pool (bcrypt-tasks.ts). */
export const hashPassword = (plain: string) => runInWorker<string>('bcryptHash', plain, { lane: 'auth' });

export async function passwordMatches(plain: string, hash: string): Promise<boolean> {
  if (!hash.startsWith('$2')) return false;
  return runInWorker<boolean>('bcryptCompare', { plain, hash }, { lane: 'auth' });
}

/** Ghost's answer to a wrong password, at login and wherever a staff user confirms a change with theirs. */
export async function assertPasswordMatches(plain: string, hash: string): Promise<void> {
  if (!(await passwordMatches(plain, hash))) {
    throw errors.validation({
      message: 'Your password is incorrect.',
      context: 'Your password is incorrect.',
      help: 'Visit and save your profile after logging in to check for problems.',
      code: 'PASSWORD_INCORRECT',
    });
  }
}

/** A change to one's own account confirmed with one's password (a new password, the authenticator app's changes). */
export async function assertOwnPassword(plain: unknown, hash: string): Promise<void> {
  if (typeof plain !== 'string' || !plain) throw errors.validation('Password is required for this operation');
  await assertPasswordMatches(plain, hash);
}

/** Changing or resetting a password: the new one typed twice alike. */
export function assertSamePasswords(data: { newPassword: unknown; ne2Password: unknown }): void {
  if (data.newPassword !== data.ne2Password) throw errors.validation('Your new passwords do not match');
}

const INSECURE_SEQUENCES = ['1234567890', 'qwertyuiop', 'qwertzuiop', 'asdfghjkl;', 'abcdefghij', '0987654321', '1q2w3e4r5t', '12345asdfg'];

/**
 * Ghost's password policy (`validate-password.js`): at least 10 characters, not a known sequence, not the
 * e-mail, site title or URL, no "password"/"ghost"/"passw0rd", no character making up half of it.
 */
export function assertPasswordPolicy(password: string, context: { email?: string; siteTitle?: string; siteUrl?: string }): void {
  if (password.length < 10) throw errors.validation('Your password must be at least 10 characters long.');
  const lower = password.toLowerCase();
  const counts = new Map<string, number>();
  for (const ch of password) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const dominant = Math.max(...counts.values()) / password.length >= 0.5;
  const siteAddress = context.siteUrl?.replace(/^https?:\/\//, '').toLowerCase();
  const insecure =
    INSECURE_SEQUENCES.includes(lower) ||
    (context.email && lower === context.email.toLowerCase()) ||
    (context.siteTitle && lower === context.siteTitle.toLowerCase()) ||
    (siteAddress && (lower === siteAddress || lower === siteAddress.replace(/\/$/, ''))) ||
    /password|ghost|passw0rd/.test(lower) ||
    dominant;
  if (insecure) throw errors.validation('Sorry, you cannot use an insecure password.');
}
