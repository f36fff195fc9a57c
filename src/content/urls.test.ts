import { describe, expect, it } from 'vitest';
import { authorUrl, notFoundUrl, postUrl, tagUrl } from './urls.js';
import { SITE, urlsFixture } from '../../test/fixtures/content/load.js';

// URLs Ghost returned from the Admin API for posts, pages, tags and the author (test/fixtures/content/urls.json).

describe('postUrl', () => {
  for (const p of urlsFixture.cases.posts) {
    it(`matches Ghost for a ${p.status} ${p.resource.slice(0, -1)}`, () => {
      const type = p.resource === 'pages' ? 'page' : 'post';
      expect(postUrl(SITE, { slug: p.slug, uuid: p.uuid, status: p.status, type })).toBe(p.url);
    });
  }

  it('previews an unpublished email-only post under /email/', () => {
    expect(postUrl(SITE, { slug: 's', uuid: 'u-1', status: 'sent', type: 'post', email_only: true })).toBe(`${SITE}email/u-1/`);
  });

  it('keeps the site subdirectory', () => {
    expect(postUrl('https://example.com/blog/', { slug: 'hello', uuid: 'u', status: 'published', type: 'post' })).toBe('https://example.com/blog/hello/');
  });
});

describe('tagUrl and authorUrl', () => {
  for (const t of urlsFixture.cases.tags) {
    it(`matches Ghost for a ${t.case}`, () => {
      const routable = t.case.startsWith('public') && t.case.endsWith('on a published post');
      expect(tagUrl(SITE, t.slug, routable)).toBe(t.url);
    });
  }

  it('matches Ghost for an author with published posts, and 404 without', () => {
    const { author } = urlsFixture.cases;
    expect(authorUrl(SITE, author.slug, true)).toBe(author.url);
    expect(authorUrl(SITE, author.slug, false)).toBe(notFoundUrl(SITE));
    expect(notFoundUrl(SITE)).toBe(`${SITE}404/`);
  });
});
