import { expect, it } from 'vitest';
import { useTestSite } from './test-site.js';

// Several requests (or instances) racing for the same free slug or the same new tag: every one succeeds,
// each post gets its own slug and the tag is made once.
const t = useTestSite({ caller: 'integration' });

it('creates twelve posts with one title and one new tag at once', async () => {
  const results = await Promise.all(Array.from({ length: 12 }, () => t.admin.post('/posts/', { posts: [{ title: 'Same title', tags: ['Shared new tag'] }] })));
  expect(results.map((res) => res.statusCode)).toEqual(Array(12).fill(201));
  const slugs = new Set(results.map((res) => res.json().posts[0].slug));
  expect(slugs.size).toBe(12);
  expect(slugs.has('same-title')).toBe(true);
  const tags = (await t.admin.get('/tags/?limit=all&filter=slug:shared-new-tag&include=count.posts')).json().tags;
  expect(tags).toHaveLength(1);
  expect(tags[0].count.posts).toBe(12);
});

it('creates tags with one name at once, deduplicating their slugs', async () => {
  const results = await Promise.all(Array.from({ length: 6 }, () => t.admin.post('/tags/', { tags: [{ name: 'Racing tag' }] })));
  expect(results.map((res) => res.statusCode)).toEqual(Array(6).fill(201));
  expect(new Set(results.map((res) => res.json().tags[0].slug)).size).toBe(6);
});
