import type { SessionRow, UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { emailCode } from '../../auth/otp.js';
import { signInCode } from '../../mail/templates.js';
import { readSettings } from '../../settings/settings.js';
import type { Ctx } from '../../ctx.js';

/** E-mails the user a fresh code; a refused message becomes Ghost's EmailError. */
export async function sendSignInCode({ db, site, mailer, clock }: Ctx, user: UserRow, session: Pick<SessionRow, 'user_agent' | 'ip'>): Promise<void> {
  const settings = await readSettings(db, ['title', 'admin_session_secret']);
  const mail = signInCode({
    siteTitle: settings.get('title') ?? '',
    siteUrl: site.url,
    email: user.email,
    code: emailCode(settings.get('admin_session_secret') ?? '', user.id, clock.epochMs()),
    device: describeDevice(session.user_agent),
    ip: session.ip,
    at: new Date(clock.epochMs()),
  });
  try {
    await mailer.send({ to: user.email, fromName: settings.get('title') ?? undefined, ...mail });
  } catch (err) {
    throw errors.email({
      message: 'Failed to send email. Please check your site configuration and try again.',
      help: 'Please see https://ghost.org/docs/config/#mail for instructions on configuring email.',
      cause: err,
    });
  }
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad/, 'iOS'],
  [/Mac OS X/, 'Mac OS'],
  [/Android/, 'Android'],
  [/Linux/, 'Linux'],
];

/** `Chrome, Mac OS` from a User-Agent, as the sign-in mail shows it; empty when nothing is recognised. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return '';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  return [browser, system].filter(Boolean).join(', ');
}
