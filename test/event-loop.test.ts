import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { ADMIN } from './support.js';
import { largeLexical } from './fixtures/lexical.mjs';

const t = useTestSite();

describe('the event loop stays free', () => {
  it('answers GET /site/ promptly while a 20 MB post is saved (4 MB on MySQL)', async () => {
    const base = await t.listen();
    // MySQL/MariaDB refuse a statement larger than the server's max_allowed_packet (16 MB by default), which
    // bounds a post there (README): its lexical, html and plaintext go in one insert, about three times the
    // lexical's size. The other engines take the 20 MB.
    const megabytes = process.env.TEST_DATABASE_URL?.startsWith('mysql') ? 4 : 20;
    const lexical = largeLexical(megabytes * 1024 * 1024);
    const body = JSON.stringify({ posts: [{ title: 'A very long post', lexical }] });
    expect(body.length).toBeGreaterThan(megabytes * 1024 * 1024);

    const started = performance.now();
    const save = fetch(`${base}${ADMIN}/posts/?formats=plaintext`, {
      method: 'POST',
      headers: { ...t.owner, 'content-type': 'application/json' },
      body,
    });
    let saved = false;
    let saveMs = 0;
    void save.finally(() => {
      saved = true;
      saveMs = performance.now() - started;
    });

    const timings: number[] = [];
    // 50 reads spread over the save, then more while it lasts: every one of them must come back promptly.
    while (timings.length < 50 || !saved) {
      const sent = performance.now();
      const res = await fetch(`${base}${ADMIN}/site/`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      timings.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res = await save;
    expect(res.status).toBe(201);
    const post = ((await res.json()) as { posts: { plaintext: string }[] }).posts[0]!;
    expect(post.plaintext.length).toBeGreaterThan((megabytes / 2) * 1024 * 1024);
    const slowest = Math.max(...timings);
    console.log(`GET /site/ during a ${saveMs.toFixed(0)} ms save: ${timings.length} reads, slowest ${slowest.toFixed(0)} ms`);
    // The target is 100 ms (bench/large-post.mjs measures it; 150-190 ms here in this test on a quiet machine).
    // A shared, busy test machine stretches every figure, the loop's pauses (the synchronous SQLite write of
    // the ~80 MB row and revision, parsing and serialising the bodies, garbage collection) more than the
    // save: CI once saw a 2.8 s read during a 13.9 s save. So the bound is relative: a render on the event
    // loop makes some read wait for most of the save; off it, the slowest read stays well under a third.
    expect(slowest).toBeLessThan(Math.max(1000, saveMs / 3));
  }, 600_000);
});
