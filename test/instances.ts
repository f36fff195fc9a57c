import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { OWNER, freePort } from './support.js';

/**
 * The built server (`dist/main.mjs`, as `npm start` runs it) as separate processes, each with its own port and
 * its own empty CONTENT_DIR (instances share nothing on disk), and a client that sends each request to the next
 * one in turn, as a round-robin load balancer does.
 */
const root = path.resolve(import.meta.dirname, '..');

/** Builds `dist/` when the sources are newer (the e2e files' first step). */
export const buildIfStale = () => execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });

/**
 * Before the file's tests: `dist/` built when the sources are newer (a minute or two on a busy machine) and an
 * empty folder made (`folder.path`, for CONTENT_DIR); the folder is removed after them.
 */
export function useBuildAndFolder(prefix: string): { readonly path: string } {
  const folder = { path: '' };
  beforeAll(() => {
    buildIfStale();
    folder.path = mkdtempSync(path.join(tmpdir(), prefix));
  }, 180_000);
  afterAll(() => rmSync(folder.path, { recursive: true, force: true }));
  return folder;
}

export interface InstanceOptions {
  /** A folder that outlives the instance (a restart on the same data); by default a fresh one, removed by `stop()`. */
  contentDir?: string;
  /** By default a free one. */
  port?: number;
  /** Whether its stdout is passed on to the test run's own (stderr always is); true by default. */
  echo?: boolean;
}

export interface Instance {
  readonly base: string;
  /** The server's process (a test may pause it with SIGSTOP, as a long event-loop turn would). */
  readonly pid: number;
  readonly contentDir: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then waits for the exit; a content folder it made is removed. */
  stop(): Promise<void>;
}

/** Starts one instance with `settings` (DATABASE_URL, SITE_URL, …); resolves once it reports ready. */
export async function startInstance(settings: Record<string, string>, options: InstanceOptions = {}): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const contentDir = options.contentDir ?? mkdtempSync(path.join(tmpdir(), 'quire-instance-'));
  // Nothing of the test runner's own environment decides where an instance's data is.
  const { SITE_URL: _site, DATABASE_URL: _db, CONTENT_DIR: _dir, REDIS_URL: _redis, STORAGE: _storage, ...inherited } = process.env;
  const child = spawn(process.execPath, ['dist/main.mjs'], {
    cwd: root,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', CONTENT_DIR: contentDir, LOG_LEVEL: 'warn', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += String(chunk);
    if (options.echo !== false) process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += String(chunk);
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the instance on port ${port} exited with code ${child.exitCode} before it was ready`);
    const ready = await fetch(`${base}/_quire/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the instance on port ${port} was not ready within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    pid: child.pid!,
    contentDir,
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (!options.contentDir) rmSync(contentDir, { recursive: true, force: true });
    },
  };
}

/**
 * Sets up the site on `base` (the Owner of test/support.ts) and signs the Owner in: the headers for JSON calls to
 * its Admin API with that session.
 */
export async function ownerSession(base: string): Promise<Record<string, string>> {
  const json = { 'content-type': 'application/json', origin: base };
  expect(
    (await fetch(`${base}/ghost/api/admin/authentication/setup/`, { method: 'POST', headers: json, body: JSON.stringify({ setup: [OWNER] }) })).status,
  ).toBe(201);
  return ownerSignIn(base);
}

/** The Owner (set up already, through any instance) signed in through `base`: a session bound to that origin. */
export async function ownerSignIn(base: string): Promise<Record<string, string>> {
  const json = { 'content-type': 'application/json', origin: base };
  const login = await fetch(`${base}/ghost/api/admin/session/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: OWNER.email, password: OWNER.password }),
  });
  expect(login.status).toBe(201);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { ...json, cookie };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: any;
  /** Which instance answered (index into the client's list). */
  instance: number;
}

export interface SendOptions {
  /** A JSON value, or a multipart form. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sends to this instance instead of the next one in turn (the turn does not move). */
  instance?: number;
}

/** Sends each request to the next instance in turn; `headers` go with every request. */
export class RotatingClient {
  #turn = 0;
  constructor(
    readonly bases: readonly string[],
    readonly headers: Record<string, string> = {},
  ) {}

  get size(): number {
    return this.bases.length;
  }

  async send(method: string, url: string, options: SendOptions = {}): Promise<Answer> {
    const instance = options.instance ?? this.#turn++ % this.bases.length;
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.bases[instance]}${url}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json, instance };
  }

  /** The same request to every instance, one after the other. */
  async everywhere(method: string, url: string, options: Omit<SendOptions, 'instance'> = {}): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let instance = 0; instance < this.bases.length; instance++) answers.push(await this.send(method, url, { ...options, instance }));
    return answers;
  }
}

/** The Cookie header value for the cookies an answer sets. */
export const cookiesOf = (answer: Answer) =>
  answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/** Whether something accepts TCP connections at 127.0.0.1:`port` (a Redis server, say). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}
