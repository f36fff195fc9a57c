import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, CONTENT, adminAuth, bootstrap, startTestApp, type TestApp } from '../support.js';

let t: TestApp;
let keys: Awaited<ReturnType<typeof bootstrap>>;
beforeAll(async () => { t = await startTestApp(); keys = await bootstrap(t.app); });
afterAll(async () => { await t.close(); });

it('rich', async () => {
  const peer = JSON.parse(readFileSync('/tmp/peer/rich-out.json', 'utf8')).posts[0];
  const lexical = JSON.stringify(JSON.parse(readFileSync('test/fixtures/lexical-rich.json', 'utf8')));
  const res = await t.app.inject({ method: 'POST', url: `${ADMIN}/posts/?formats=html,plaintext,mobiledoc,lexical`, headers: adminAuth(keys.adminKey), payload: { posts: [{ title: 'Rich post', lexical, status: 'published', tags: ['News', { name: '#internal' }], custom_excerpt: null, feature_image: 'https://images.example.com/f.jpg' }] } });
  const ours = res.json().posts[0];
  expect(ours.html).toBe(peer.html);
  expect(ours.plaintext).toBe(peer.plaintext);
  expect(ours.excerpt).toBe(peer.excerpt);
  expect(ours.reading_time).toBe(peer.reading_time);
  expect(Object.keys(ours)).toEqual(Object.keys(peer).filter((k) => !['tiers'].includes(k) || true));
  const c = await t.app.inject({ url: `${CONTENT}/posts/${ours.id}/?key=${keys.contentKey}&formats=html,plaintext` });
  console.log(c.body.slice(0, 1500));
});
