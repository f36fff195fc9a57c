import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { emailCode } from '../src/auth/otp.js';
import { readSetting } from '../src/settings/settings.js';
import type { RoleName } from '../src/auth/roles.js';
import { ADMIN, ORIGIN, OWNER, adminAuth, login, type TestApp } from './support.js';
import { makeStaff, STAFF_PASSWORD, type StaffUser } from './factories.js';
import type { TestSite } from './test-site.js';
import { parseMail, type ReceivedMail } from './mail-support.js';

/** A login with the staff factory's password; the Cookie header value. */
export const loginAs = (app: FastifyInstance, email: string, password = STAFF_PASSWORD) => login(app, email, password);

/** `<id>:<secret>` of the user's staff token, read through the API with their session. */
export async function staffKey(app: FastifyInstance, cookie: string): Promise<string> {
  const res = await app.inject({ url: `${ADMIN}/users/me/token/`, headers: { cookie, origin: ORIGIN } });
  if (res.statusCode !== 200) throw new Error(`token read failed: ${res.statusCode} ${res.body}`);
  const { id, secret } = res.json().apiKey;
  return `${id}:${secret}`;
}

/** The e-mailed sign-in code a user would receive now (Ghost's TOTP), computed from the site's secret. */
export async function currentCode(t: TestApp, userId: string, at = Date.now()): Promise<string> {
  return emailCode((await readSetting(t.connection.db, 'admin_session_secret'))!, userId, at);
}

export type ActorKind = 'session' | 'staff' | 'integration';

/** Someone calling the Admin API: a role's session or staff token, or an integration's key. */
export interface Caller {
  label: string;
  kind: ActorKind;
  role: RoleName | 'Admin Integration';
  user: StaffUser | null;
  headers(): Record<string, string>;
  /** Logs in again (session) or re-reads the key (staff token) after a test ended or renewed it. */
  renew(): Promise<void>;
}

export const STAFF_ROLES: RoleName[] = ['Owner', 'Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor'];

/** Session and staff-token callers for each staff role, and the integration: thirteen in all. */
export async function makeCallers(t: TestSite, integrationKey: string): Promise<Caller[]> {
  const callers: Caller[] = [];
  for (const role of STAFF_ROLES) {
    const user = role === 'Owner' ? { id: '1', email: OWNER.email, name: OWNER.name, slug: 'owner', password: OWNER.password } : await makeStaff(t, role);
    const { password } = user;
    const state = { cookie: await loginAs(t.app, user.email, password), key: '' };
    state.key = await staffKey(t.app, state.cookie);
    callers.push({
      label: `${role} session`,
      kind: 'session',
      role,
      user,
      headers: () => ({ cookie: state.cookie, origin: ORIGIN }),
      renew: async () => {
        state.cookie = await loginAs(t.app, user.email, password);
      },
    });
    callers.push({
      label: `${role} staff token`,
      kind: 'staff',
      role,
      user,
      headers: () => adminAuth(state.key),
      renew: async () => {
        state.key = await staffKey(t.app, await loginAs(t.app, user.email, password));
      },
    });
  }
  callers.push({
    label: 'integration',
    kind: 'integration',
    role: 'Admin Integration',
    user: null,
    headers: () => adminAuth(integrationKey),
    renew: async () => {},
  });
  return callers;
}

export function call(app: FastifyInstance, caller: Caller, method: InjectOptions['method'], path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method, url: `${ADMIN}${path}`, headers: caller.headers(), ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** Messages the file fallback wrote to `CONTENT_DIR/mail/`, oldest first. */
export async function outbox(t: TestApp): Promise<ReceivedMail[]> {
  const dir = path.join(t.config.contentDir, 'mail');
  if (!existsSync(dir)) return [];
  return Promise.all(
    readdirSync(dir)
      .sort()
      .map((file) => parseMail(readFileSync(path.join(dir, file), 'utf8'))),
  );
}

export const lastMailTo = async (t: TestApp, email: string) => (await outbox(t)).filter((mail) => mail.to.toLowerCase().includes(email.toLowerCase())).pop();

/** A second app on `t`'s database whose mail transport refuses every message with `reason`; close it after use. */
export const appRefusingMail = (t: TestApp, reason: string) =>
  buildApp({
    config: t.config,
    connection: t.connection,
    mailer: {
      fromAddress: 'noreply@127.0.0.1',
      send: async () => {
        throw new Error(reason);
      },
    },
  });
