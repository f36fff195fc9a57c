import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteDriver } from '../src/db/sqlite-driver.js';
import { freePort } from './support.js';
import { useBuildAndFolder } from './instances.js';

// The built server (`npm start` runs dist/main.mjs) as a process: how it fails to start, and how it stops.
const root = path.resolve(import.meta.dirname, '..');

const folder = useBuildAndFolder('quire-operate-');

/** Starts the built server with `settings`; resolves with its exit code and stderr once it exits. */
function run(settings: Record<string, string>) {
  const { SITE_URL: _site, DATABASE_URL: _db, ...inherited } = process.env;
  const child = spawn(process.execPath, ['dist/main.mjs'], {
    cwd: root,
    env: { ...inherited, CONTENT_DIR: folder.path, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  const exited = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr, stdout })),
  );
  return { child, exited };
}

describe('start-up failures: one line naming the setting, exit code 1', () => {
  it('a port in use names PORT and HOST', async () => {
    const port = await freePort();
    const taken = createServer().listen(port, '127.0.0.1');
    try {
      const { code, stderr } = await run({ PORT: String(port), DATABASE_URL: `sqlite:${path.join(folder.path, 'port.db')}` }).exited;
      expect(code).toBe(1);
      expect(stderr).toBe(
        `quire: cannot listen on 127.0.0.1:${port}: the port is already in use (another Quire, Ghost or other server?); change PORT or HOST\n`,
      );
    } finally {
      taken.close();
    }
  });

  it('an unreachable database names the host of DATABASE_URL, never its password', async () => {
    const port = await freePort();
    const { code, stderr } = await run({ PORT: String(port), DATABASE_URL: 'postgres://quire:s3cret-pw@127.0.0.1:1/quire' }).exited;
    expect(code).toBe(1);
    expect(stderr).toBe(
      'quire: cannot use the database: the postgres server at 127.0.0.1:1 (database "quire", user "quire") from DATABASE_URL: connection refused (is the server running and listening there?)\n',
    );
  });

  it('a failed migration is named', async () => {
    const file = path.join(folder.path, 'broken.db');
    const db = await openSqliteDriver(file);
    db.exec('CREATE TABLE settings (something_else TEXT)');
    db.close();
    const { code, stderr } = await run({ PORT: String(await freePort()), DATABASE_URL: `sqlite:${file}` }).exited;
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(stderr).toMatch(/^quire: database sqlite:.*broken\.db: migration 0001-foundation failed: table [`"]?settings[`"]? already exists\n$/);
  });
});

describe('shutdown', () => {
  it('on SIGTERM lets a request in flight finish (5 s), then exits 0', async () => {
    const port = await freePort();
    const { child, exited } = run({ PORT: String(port), DATABASE_URL: `sqlite:${path.join(folder.path, 'stop.db')}`, LOG_LEVEL: 'info' });
    for (let tries = 0; tries < 300; tries++) {
      const up = await fetch(`http://127.0.0.1:${port}/_quire/live`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A request whose body takes five seconds to arrive: it is in flight when SIGTERM comes.
    const body = JSON.stringify({ username: 'nobody@example.com', password: 'not-the-password-1' });
    const started = Date.now();
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/ghost/api/admin/session/',
          headers: { 'content-type': 'application/json', 'content-length': body.length, origin: `http://127.0.0.1:${port}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => child.kill('SIGTERM'), 1000);
      setTimeout(() => req.end(body.slice(10)), 5000);
    });
    const status = await answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('shutting down');
  }, 30_000);
});
