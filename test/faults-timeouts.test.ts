import { connect as connectTcp } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { ADMIN } from './support.js';

/** Bounded waits: a client that never finishes sending its request does not hold a connection for long. */
const t = useTestSite({ settings: { REQUEST_TIMEOUT_MS: '1000' } });

/** Sends `head` (and nothing more) on a raw connection; resolves what came back and when the server closed it. */
function sendAndWait(port: number, head: string): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connectTcp(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    // A safety net far past the configured timeout: the test fails rather than hangs.
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

describe('request timeout', () => {
  it('answers 408 and closes a request whose declared body never arrives, within REQUEST_TIMEOUT_MS, even unauthenticated', async () => {
    const base = await t.listen();
    const port = Number(new URL(base).port);
    const head = `POST ${ADMIN}/session/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":`;
    const { answer, closedAfterMs } = await sendAndWait(port, head);
    // Node's own 408, as Ghost sends it (there after 300 s and a check interval).
    expect(answer).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(3500);
    // Headers that never end are cut off too.
    const slow = await sendAndWait(port, `GET ${ADMIN}/site/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
    expect(slow.answer).toMatch(/^HTTP\/1.1 408/);
    expect(slow.closedAfterMs).toBeLessThan(3500);
    // A complete request is unaffected.
    expect((await fetch(`${base}${ADMIN}/site/`)).status).toBe(200);
  });
});
