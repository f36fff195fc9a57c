import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from './instances.js';
import { createTestDatabase, type TestDatabase } from './support.js';

/**
 * A burst of new connections while the server cannot accept them (its process stopped here, as a long
 * event-loop turn under load stops it): the kernel holds up to the listen backlog of them for the server, and
 * drops the SYNs of the rest, whose clients retry after 1 s, 3 s, 7 s… Node's default backlog, 511, is less
 * than a burst of 1,000 readers; the built server (`dist/main.mjs`) listens with `LISTEN_BACKLOG` (default 4096).
 */
const root = path.resolve(import.meta.dirname, '..');
const BURST = 1000;
/** The kernel lowers every backlog to this (Linux); a machine set lower cannot hold the whole burst. */
const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim());

let database: TestDatabase;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
  database = await createTestDatabase();
}, 180_000);
afterAll(async () => {
  await database.drop();
});

interface Burst {
  /** Connections the kernel completed while the server was stopped. */
  held: number;
  /** The status of each connection's answer once the server ran again (0: none came). */
  statuses: number[];
}

/**
 * Stops the server, opens `count` connections each sending `GET /_quire/live`, waits until no more of them
 * connect for a second (a dropped SYN is retried after 1 s, and dropped again while the queue stays full),
 * then lets the server run and collects every answer.
 */
async function burstWhileStopped(instance: Instance, count: number): Promise<Burst> {
  const port = Number(new URL(instance.base).port);
  process.kill(instance.pid, 'SIGSTOP');
  const sockets: Socket[] = [];
  let held = 0;
  try {
    const closed = Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve) => {
          let answer = '';
          const socket = connectTcp(port, '127.0.0.1', () => {
            held++;
            socket.write('GET /_quire/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
          });
          sockets.push(socket);
          socket.on('data', (chunk) => (answer += String(chunk)));
          socket.on('error', () => {});
          socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
        }),
    );
    let seen = -1;
    while (held !== seen && held < count) {
      seen = held;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const heldWhileStopped = held;
    process.kill(instance.pid, 'SIGCONT');
    // A safety net: connections the kernel did not hold wait for their SYN's next retry; none may hang the test.
    const timer = setTimeout(() => sockets.forEach((socket) => socket.destroy()), 20_000);
    const statuses = await Promise.all(closed);
    clearTimeout(timer);
    return { held: heldWhileStopped, statuses };
  } finally {
    process.kill(instance.pid, 'SIGCONT');
  }
}

describe('a burst of new connections beyond 511', () => {
  it('is held whole by the kernel while the server is busy with LISTEN_BACKLOG above it, and every connection is answered once it runs again', async () => {
    const instance = await startInstance({ DATABASE_URL: database.url, JOBS_ENABLED: 'false', LISTEN_BACKLOG: '2000' });
    try {
      const { held, statuses } = await burstWhileStopped(instance, BURST);
      expect(held).toBe(Math.min(BURST, somaxconn + 1));
      expect(statuses.filter((status) => status === 200).length).toBe(BURST);
    } finally {
      await instance.stop();
    }
  }, 90_000);

  it('is held up to LISTEN_BACKLOG: the setting is the backlog the server listens with', async () => {
    const instance = await startInstance({ DATABASE_URL: database.url, JOBS_ENABLED: 'false', LISTEN_BACKLOG: '100' });
    try {
      const { held } = await burstWhileStopped(instance, 300);
      // Linux holds one more than the backlog.
      expect(held).toBeGreaterThanOrEqual(100);
      expect(held).toBeLessThanOrEqual(101);
    } finally {
      await instance.stop();
    }
  }, 90_000);
});
