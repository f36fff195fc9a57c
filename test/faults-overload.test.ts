import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { ADMIN, CONTENT } from './support.js';

/**
 * Overload: a request that waited longer than REQUEST_QUEUE_TIMEOUT_MS for its turn is answered Ghost's 503 at
 * once rather than late. The event loop is held here by a listener of the server's own that runs after the
 * request was read, as a long turn under many readers holds it.
 */
const QUEUE_TIMEOUT_MS = 300;
const t = useTestSite({ settings: { REQUEST_QUEUE_TIMEOUT_MS: String(QUEUE_TIMEOUT_MS) } });
let listening: Promise<string> | undefined;
const listen = () => (listening ??= t.listen());

/** Holds the event loop for `ms` once the next request matching `path` has been read. */
function holdLoopAfterNextRequest(path: string, ms: number): void {
  const hold = (request: IncomingMessage) => {
    if (!request.url?.startsWith(path)) return;
    t.app.server.off('request', hold);
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  t.app.server.on('request', hold);
}

describe('a request that waited too long for its turn', () => {
  it("is answered Ghost's 503 with Retry-After, health checks still answer, and the next request is served", async () => {
    const base = await listen();
    const url = `${base}${CONTENT}/posts/?key=${t.keys.contentKey}`;

    holdLoopAfterNextRequest(`${CONTENT}/posts/`, QUEUE_TIMEOUT_MS * 3);
    const shed = await fetch(url);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(shed.headers.get('cache-control')).toMatch(/^no-cache, private, no-store/);
    const body = (await shed.json()) as { errors: Record<string, unknown>[] };
    expect(body.errors).toHaveLength(1);
    expect(Object.keys(body.errors[0]!).sort()).toEqual(['code', 'context', 'details', 'ghostErrorCode', 'help', 'id', 'message', 'property', 'type']);
    expect(body.errors[0]).toMatchObject({
      type: 'MaintenanceError',
      message: 'The server is too busy to answer now; please try again shortly.',
      code: 'SERVER_BUSY',
    });

    // Health checks do not wait in the queue: a load balancer asks them while the site is busiest.
    holdLoopAfterNextRequest('/_quire/live', QUEUE_TIMEOUT_MS * 3);
    expect((await fetch(`${base}/_quire/live`)).status).toBe(200);

    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(((await served.json()) as { posts: unknown[] }).posts).toBeInstanceOf(Array);
  });
});

describe('requests that hold their place', () => {
  it('do not keep others from starting: readers are served while 80 sign-ins wait for bodies that never arrive', async () => {
    const base = await listen();
    const port = Number(new URL(base).port);
    // More than the queue lets run at once (64): each has started and waits for its body, as a slow upload does.
    const head = `POST ${ADMIN}/session/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":`;
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 80; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(head);
        held.push(socket);
      }
      const url = `${base}${CONTENT}/posts/?key=${t.keys.contentKey}`;
      for (let i = 0; i < 3; i++) expect((await fetch(url)).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
