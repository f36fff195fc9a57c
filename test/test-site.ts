import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, it } from 'vitest';
import type { RoleName } from '../src/auth/roles.js';
import { buildApp } from '../src/app.js';
import { connect, type Connection } from '../src/db/connect.js';
import { systemClock, type Clock } from '../src/clock.js';
import { makeIntegration } from './factories.js';
import { multipartBody, type FilePart } from './uploads.js';
import { ADMIN, CONTENT, ORIGIN, adminAuth, expectGhostError, login, setupSite, startTestApp, type Keys, type TestApp } from './support.js';

/** Request headers that say who is calling: a session (`{ cookie, origin }`), an admin key token, or NOBODY. */
export type Caller = Record<string, string>;
/** No credentials: an anonymous call. */
export const NOBODY: Caller = Object.freeze({});

export interface TestSiteOptions {
  /** Configuration values (e.g. `STAFF_DEVICE_VERIFICATION`); a function when they are known only once earlier hooks ran. */
  settings?: Record<string, string> | (() => Record<string, string>);
  /**
   * How far the site is set up before the tests: `none` leaves a fresh database (the setup tests need
   * one), `owner` completes setup, `full` (default) also logs the Owner in and adds an integration.
   */
  setup?: 'none' | 'owner' | 'full';
  /** Whom `admin` calls as when a call names nobody: the Owner's session (default) or the integration's key. */
  caller?: 'owner' | 'integration';
  /** Plugins on the app's database connection (the query-count tests count statements). */
  plugins?: KyselyPlugin[];
  /** The app's clock (default: the system clock). */
  clock?: Clock;
  /** Run the job runner (webhook delivery) in the app, as the server does. */
  jobs?: boolean;
}

type Method = NonNullable<InjectOptions['method']>;

/**
 * One migrated site per test file, on the engine under test: `useTestSite()` at the top of the file
 * registers the set-up and tear-down hooks; its fields are there once `beforeAll` has run.
 */
export class TestSite implements TestApp {
  #app: TestApp | undefined;
  #owner: Caller | undefined;
  #keys: Keys | undefined;
  #roles = new Map<string, string>();

  constructor(private readonly options: TestSiteOptions) {}

  async start(): Promise<void> {
    const { settings = {}, clock, plugins, jobs } = this.options;
    this.#app = await startTestApp(typeof settings === 'function' ? settings() : settings, { clock, plugins, runJobs: jobs ?? false });
    const { setup = 'full' } = this.options;
    if (setup === 'none') return;
    await setupSite(this.app);
    for (const role of await this.db.selectFrom('roles').select(['id', 'name']).execute()) this.#roles.set(role.name, role.id);
    if (setup === 'owner') return;
    const cookie = await login(this.app);
    this.#owner = { cookie, origin: ORIGIN };
    this.#keys = await makeIntegration(this, 'Test Integration');
  }

  /** Listens on a free loopback port, for clients that need a real server (the SDKs); returns its base URL. */
  async listen(): Promise<string> {
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    const address = this.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    await this.#app?.close();
  }

  get app() {
    return this.#started().app;
  }
  get connection() {
    return this.#started().connection;
  }
  get config() {
    return this.#started().config;
  }
  get db() {
    return this.connection.db;
  }
  get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  /** The Owner's session headers (`setup: 'full'`). */
  get owner(): Caller {
    return this.#ready(this.#owner);
  }
  /** The integration's id, admin key and content key (`setup: 'full'`). */
  get keys(): Keys {
    return this.#ready(this.#keys);
  }
  /** A fresh token for the integration's admin key (tokens expire after five minutes). */
  integration(): Caller {
    return adminAuth(this.keys.adminKey);
  }
  /** Session headers for a fresh login of `user` (throws when the login fails). */
  async session(user: { email: string; password: string }): Promise<Caller> {
    return { cookie: await login(this.app, user.email, user.password), origin: ORIGIN };
  }

  roleId(name: RoleName): string {
    const id = this.#roles.get(name);
    if (!id) throw new Error(`no role ${name} (is the site set up?)`);
    return id;
  }

  /** Admin API calls; `as` defaults to the site's `caller`. */
  readonly admin = {
    request: (method: Method, url: string, body?: unknown, as?: Caller): Promise<LightMyRequestResponse> =>
      this.app.inject({ method, url: `${ADMIN}${url}`, headers: as ?? this.#defaultCaller(), ...(body === undefined ? {} : { payload: body as object }) }),
    get: (url: string, as?: Caller) => this.admin.request('GET', url, undefined, as),
    del: (url: string, as?: Caller) => this.admin.request('DELETE', url, undefined, as),
    post: (url: string, body?: unknown, as?: Caller) => this.admin.request('POST', url, body, as),
    put: (url: string, body?: unknown, as?: Caller) => this.admin.request('PUT', url, body, as),
    /** A multipart upload (`POST`, or `PUT` for the media thumbnail): text fields and files. */
    upload: async (url: string, parts: Record<string, string | string[] | FilePart>, as?: Caller, method: 'POST' | 'PUT' = 'POST') => {
      const { payload, headers } = await multipartBody(parts);
      return this.app.inject({ method, url: `${ADMIN}${url}`, headers: { ...(as ?? this.#defaultCaller()), ...headers }, payload });
    },
  };

  /** A public file of the site (`/content/images/…`), as a browser fetches it. */
  file(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers });
  }

  /** Content API calls with the integration's content key. */
  readonly content = {
    get: (url: string): Promise<LightMyRequestResponse> =>
      this.app.inject({ url: `${CONTENT}${url}${url.includes('?') ? '&' : '?'}key=${this.keys.contentKey}` }),
  };

  #defaultCaller(): Caller {
    return this.options.caller === 'integration' ? this.integration() : this.owner;
  }

  #started(): TestApp {
    if (!this.#app) throw new Error('the test site is used before its beforeAll has run');
    return this.#app;
  }

  #ready<T>(value: T | undefined): T {
    if (value === undefined) throw new Error("not available: the test site was started without setup: 'full', or before its beforeAll ran");
    return value;
  }
}

/** A test site for this file: started in `beforeAll`, closed (database dropped) in `afterAll`. */
export function useTestSite(options: TestSiteOptions = {}): TestSite {
  const site = new TestSite(options);
  beforeAll(() => site.start());
  afterAll(() => site.close());
  return site;
}

/** A second, throw-away site for one test whose changes would spoil the file's shared one. */
export async function withTestSite<T>(fn: (site: TestSite) => Promise<T>, options: TestSiteOptions = {}): Promise<T> {
  const site = new TestSite(options);
  try {
    await site.start();
    return await fn(site);
  } finally {
    await site.close();
  }
}

/**
 * A second instance of the service on the test site's database and storage (another process behind the load
 * balancer, in this one), built in `beforeAll` and closed in `afterAll`.
 */
export function useSecondInstance(site: { readonly config: TestSite['config'] }): { readonly app: FastifyInstance } {
  let connection: Connection | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    connection = connect(site.config.databaseUrl, { poolSize: 2 });
    app = await buildApp({ config: site.config, connection });
  });
  afterAll(async () => {
    await app?.close();
    await connection?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the second instance is used before its beforeAll has run');
      return app;
    },
  };
}

/** A request Ghost answers 404: method, path, and the message and context of its NotFoundError. */
export type NotFoundCase = [method: Method, path: string, message: string, context: string];

/** One test per case; a PUT sends `editBody(path)`, a body Ghost would accept for a known id. */
export function itAnswersNotFound(t: TestSite, cases: NotFoundCase[], editBody: (path: string) => object): void {
  it.each(cases)('%s %s → 404', async (method, path, message, context) => {
    const res = await t.admin.request(method, path, method === 'PUT' ? editBody(path) : undefined);
    expectGhostError(res, { status: 404, type: 'NotFoundError', message, context });
  });
}
