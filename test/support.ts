import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin, SelectQueryBuilder } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { expect } from 'vitest';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { parseConfig, type Config } from '../src/config.js';
import { connect, type Connection } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildApp } from '../src/app.js';
import { signAdminToken } from '../src/auth/admin-jwt.js';
import type { Clock } from '../src/clock.js';

/**
 * The engine under test comes from TEST_DATABASE_URL: unset means SQLite in a temporary folder; a
 * `postgres://…` or `mysql://…` server URL means a fresh database there, created per test file and
 * dropped afterwards. An unreachable server fails the run; it is never skipped.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  if (!server || server.startsWith('sqlite')) {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-test-'));
    return { url: `sqlite:${path.join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const url = new URL(server);
  // The same server, with the fresh database's name as the path.
  const testUrl = new URL(server);
  testUrl.pathname = `/${name}`;
  if (url.protocol.startsWith('postgres')) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      url: testUrl.toString(),
      drop: async () => {
        const client = new pg.Client({ connectionString: server });
        await client.connect();
        // The app's pool may still be closing its sockets: wait for them rather than kill them (killed
        // connections raise errors in the closing pool). FORCE only as a last resort.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 50 ? ' WITH (FORCE)' : ''}`);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        await client.end();
      },
    };
  }
  const adminUrl = { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  const admin = await mysql.createConnection(adminUrl);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  await admin.end();
  return {
    url: testUrl.toString(),
    drop: async () => {
      const client = await mysql.createConnection(adminUrl);
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.end();
    },
  };
}

export const SITE_URL = 'http://127.0.0.1:2368/';
export const ORIGIN = 'http://127.0.0.1:2368';
export const ADMIN = '/ghost/api/admin';
export const CONTENT = '/ghost/api/content';
export const OWNER = { name: 'Owner Person', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Test Site' };

export interface TestApp {
  app: FastifyInstance;
  connection: Connection;
  config: Config;
  close(): Promise<void>;
}

/** A migrated database and an app on it; `settings` override configuration values, `clock` fixes time, `plugins` wrap the app's queries. */
export async function startTestApp(
  settings: Record<string, string> = {},
  { clock, plugins = [], runJobs = false }: { clock?: Clock; plugins?: KyselyPlugin[]; runJobs?: boolean } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-content-'));
  const config = parseConfig({ SITE_URL: SITE_URL, DATABASE_URL: database.url, CONTENT_DIR: contentDir, STAFF_DEVICE_VERIFICATION: 'false', ...settings });
  const connection = connect(config.databaseUrl, { poolSize: 4 });
  await migrateToLatest(connection);
  // The tests read and write through the app's own handle: settings are cached per handle.
  const appConnection = { ...connection, db: plugins.reduce((db, plugin) => db.withPlugin(plugin), connection.db) };
  const app = await buildApp({ config, connection: appConnection, runJobs, ...(clock ? { clock } : {}) });
  return {
    app,
    connection: appConnection,
    config,
    async close() {
      await app.close();
      await connection.close();
      await database.drop();
      rmSync(contentDir, { recursive: true, force: true });
    },
  };
}

/** Completes first-run setup with OWNER. */
export async function setupSite(app: FastifyInstance): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `${ADMIN}/authentication/setup/`, payload: { setup: [OWNER] } });
  if (res.statusCode !== 201) throw new Error(`setup failed: ${res.statusCode} ${res.body}`);
}

/** Logs in and returns the Cookie header value for later requests (send it with `Origin: ORIGIN`). */
export async function login(app: FastifyInstance, email = OWNER.email, password = OWNER.password): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `${ADMIN}/session/`, headers: { origin: ORIGIN }, payload: { username: email, password } });
  if (res.statusCode !== 201) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return cookieOf(res)!;
}

/** The session cookie a response sets, as a Cookie header value; undefined when it sets none. */
export function cookieOf(res: LightMyRequestResponse): string | undefined {
  const cookie = res.cookies.find((c) => c.name === 'service-admin-api-session');
  return cookie && `${cookie.name}=${cookie.value}`;
}

export interface Keys {
  integrationId: string;
  adminKey: string;
  contentKey: string;
}

/** A custom integration made through the API with a session cookie. */
export async function createIntegration(app: FastifyInstance, cookie: string, name = 'Test Integration'): Promise<Keys> {
  const res = await app.inject({
    method: 'POST',
    url: `${ADMIN}/integrations/?include=api_keys`,
    headers: { cookie, origin: ORIGIN },
    payload: { integrations: [{ name }] },
  });
  if (res.statusCode !== 201) throw new Error(`integration failed: ${res.statusCode} ${res.body}`);
  const integration = res.json().integrations[0];
  const key = (type: string) => integration.api_keys.find((k: { type: string }) => k.type === type).secret;
  return { integrationId: integration.id, adminKey: key('admin'), contentKey: key('content') };
}

/** Setup, owner session and an integration: what most resource tests start from. */
export async function bootstrap(app: FastifyInstance): Promise<{ cookie: string } & Keys> {
  await setupSite(app);
  const cookie = await login(app);
  return { cookie, ...(await createIntegration(app, cookie)) };
}

/** Authorization header for an admin key (`<id>:<secret>`), as the SDK signs it. */
export function adminAuth(adminKey: string): { authorization: string } {
  return { authorization: `Ghost ${signAdminToken(adminKey)}` };
}

export function sessionHeaders(cookie: string): { cookie: string; origin: string } {
  return { cookie, origin: ORIGIN };
}

/** The single error of a Ghost error body, asserting the body has exactly the nine keys. */
export function ghostError(res: LightMyRequestResponse) {
  const body = res.json() as { errors: Record<string, unknown>[] };
  if (!Array.isArray(body.errors) || body.errors.length !== 1) throw new Error(`not a Ghost error body: ${res.body}`);
  return body.errors[0]!;
}

/** What an error answer must hold: its status and the named fields of its one error (others unchecked). */
export interface ExpectedGhostError {
  status: number;
  type?: string;
  message?: string;
  context?: string | null;
  property?: string | null;
  [field: string]: unknown;
}

/** Asserts Ghost's error answer: the status, a body of exactly one error, and the fields named (`toMatchObject`). */
export function expectGhostError(res: LightMyRequestResponse, { status, ...fields }: ExpectedGhostError): void {
  expect(res.statusCode).toBe(status);
  expect(ghostError(res)).toMatchObject(fields);
}

/** Ghost's error type for each refusal status, and the words its error handler starts the message with. */
const REFUSALS = {
  400: { type: 'BadRequestError', words: 'Request not understood error' },
  403: { type: 'NoPermissionError', words: 'Permission error' },
  404: { type: 'NotFoundError', words: 'Resource not found error' },
  422: { type: 'ValidationError', words: 'Validation error' },
} as const;

/**
 * Asserts Ghost's refusal of an action (`doing`: "list posts", "save tag", …): the status, its error type and
 * the message Ghost writes for it, `<words>, cannot <doing>.`, and any other fields named (`context`, …).
 */
export function expectRefused(
  res: LightMyRequestResponse,
  status: keyof typeof REFUSALS,
  doing: string,
  fields: Omit<ExpectedGhostError, 'status' | 'type' | 'message'> = {},
): void {
  const { type, words } = REFUSALS[status];
  expectGhostError(res, { status, type, message: `${words}, cannot ${doing}.`, ...fields });
}

/** How many rows `table` holds (matching `where`, when given). */
export async function countRows(
  t: TestApp,
  table: string,
  where?: (qb: SelectQueryBuilder<Database, 'posts', object>) => SelectQueryBuilder<Database, 'posts', object>,
): Promise<number> {
  let query = t.connection.db.selectFrom(table as 'posts');
  if (where) query = where(query);
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Row counts of the tables named, by table: a refused write must leave them unchanged. */
export async function rowCounts<T extends string>(t: TestApp, tables: readonly T[]): Promise<Record<T, number>> {
  const out = {} as Record<T, number>;
  for (const table of tables) out[table] = await countRows(t, table);
  return out;
}

/** A TCP port free on loopback right now, for a server the test starts as a process. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** A stream for the app's logger that keeps what it is given: `text()` is all of it so far. */
export function logSink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}
