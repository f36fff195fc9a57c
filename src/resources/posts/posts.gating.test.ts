import { beforeAll, describe, expect, it } from 'vitest';
import { first } from '../../../test/posts-support.js';
import { GATED_BLOCKS } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

// Content API gating for an anonymous reader, replayed from Ghost 5.130.6: each post below was created on
// the peer with the same body (`?source=html`) and read back with the content key. The expected values are
// Ghost's answers.
const t = useTestSite({ caller: 'integration' });

const MARKED = '<p>Free intro for everyone.</p><!--members-only--><p>Secret rest of the post.</p>';
const PLAIN = '<p>Only for the chosen few.</p><p>Second paragraph.</p>';
const WHOLE_MARKED = 'Free intro for everyone.\n\nSecret rest of the post.';
const WHOLE_PLAIN = 'Only for the chosen few.\n\nSecond paragraph.';
const CUT = { access: false, html: '<p>Free intro for everyone.</p>', excerpt: 'Free intro for everyone.', plaintext: 'Free intro for everyone.' };
const EMPTIED = { access: false, html: '', excerpt: '', plaintext: '' };
const ALL_TIERS = ['free', 'default-product'];

interface Case {
  visibility: string;
  html: string;
  customExcerpt: string | null;
  tiers: string[];
  /** `?formats=html,plaintext`. */
  content: { access: boolean; html: string; excerpt: string; plaintext: string };
  /** Default formats: is `plaintext` in the answer (Ghost's gating adds it when it cuts). */
  plaintextByDefault: boolean;
}

const CASES: Record<string, Case> = {
  'public-marked': {
    visibility: 'public',
    html: MARKED,
    customExcerpt: null,
    tiers: ALL_TIERS,
    content: { access: true, html: MARKED, excerpt: WHOLE_MARKED, plaintext: WHOLE_MARKED },
    plaintextByDefault: false,
  },
  'public-plain': {
    visibility: 'public',
    html: PLAIN,
    customExcerpt: null,
    tiers: ALL_TIERS,
    content: { access: true, html: PLAIN, excerpt: WHOLE_PLAIN, plaintext: WHOLE_PLAIN },
    plaintextByDefault: false,
  },
  'members-marked': { visibility: 'members', html: MARKED, customExcerpt: null, tiers: ALL_TIERS, content: CUT, plaintextByDefault: true },
  'members-plain': { visibility: 'members', html: PLAIN, customExcerpt: null, tiers: ALL_TIERS, content: EMPTIED, plaintextByDefault: false },
  'members-marked-excerpt': {
    visibility: 'members',
    html: MARKED,
    customExcerpt: 'A custom teaser',
    tiers: ALL_TIERS,
    content: { ...CUT, excerpt: 'A custom teaser' },
    plaintextByDefault: true,
  },
  // Without the marker the excerpt is blanked even over a custom excerpt.
  'members-plain-excerpt': {
    visibility: 'members',
    html: PLAIN,
    customExcerpt: 'A custom teaser',
    tiers: ALL_TIERS,
    content: EMPTIED,
    plaintextByDefault: false,
  },
  'paid-marked': { visibility: 'paid', html: MARKED, customExcerpt: null, tiers: ['default-product'], content: CUT, plaintextByDefault: true },
  'paid-plain': { visibility: 'paid', html: PLAIN, customExcerpt: null, tiers: ['default-product'], content: EMPTIED, plaintextByDefault: false },
  'tiers-marked': { visibility: 'tiers', html: MARKED, customExcerpt: null, tiers: ['default-product'], content: CUT, plaintextByDefault: true },
  'tiers-plain-excerpt': {
    visibility: 'tiers',
    html: PLAIN,
    customExcerpt: 'Tier teaser',
    tiers: ['default-product'],
    content: EMPTIED,
    plaintextByDefault: false,
  },
};

let paidTierId: string;

beforeAll(async () => {
  paidTierId = (await t.db.selectFrom('products').select('id').where('slug', '=', 'default-product').executeTakeFirstOrThrow()).id;
  for (const [slug, c] of Object.entries(CASES)) {
    const body = {
      posts: [
        {
          title: slug,
          slug,
          status: 'published',
          visibility: c.visibility,
          html: c.html,
          custom_excerpt: c.customExcerpt,
          ...(c.visibility === 'tiers' ? { tiers: [{ id: paidTierId }] } : {}),
        },
      ],
    };
    const res = await t.admin.post('/posts/?source=html', body);
    expect(res.statusCode, slug).toBe(201);
  }
});

describe('Content API gating for an anonymous reader (as Ghost 5.130.6 answers)', () => {
  for (const [slug, c] of Object.entries(CASES)) {
    it(`${slug}: access, html, excerpt and plaintext; the Admin API shows the whole post and its tiers`, async () => {
      const admin = first(await t.admin.get(`/posts/slug/${slug}/?formats=html`), 'posts');
      expect(admin.html).toBe(c.html);
      expect(admin.visibility).toBe(c.visibility);
      expect(admin.tiers.map((tier: { slug: string }) => tier.slug)).toEqual(c.tiers);

      const content = first(await t.content.get(`/posts/slug/${slug}/?formats=html,plaintext`), 'posts');
      expect({ access: content.access, html: content.html, excerpt: content.excerpt, plaintext: content.plaintext }).toEqual(c.content);

      const byDefault = first(await t.content.get(`/posts/slug/${slug}/`), 'posts');
      expect({ access: byDefault.access, html: byDefault.html, excerpt: byDefault.excerpt }).toEqual({
        access: c.content.access,
        html: c.content.html,
        excerpt: c.content.excerpt,
      });
      expect('plaintext' in byDefault).toBe(c.plaintextByDefault);
    });
  }

  it('lists the same answers on browse, and access only when fields asks for it', async () => {
    const list = (await t.content.get('/posts/?limit=all&formats=html,plaintext')).json().posts as Record<string, unknown>[];
    for (const [slug, c] of Object.entries(CASES)) {
      const post = list.find((p) => p.slug === slug)!;
      expect({ access: post.access, html: post.html, excerpt: post.excerpt, plaintext: post.plaintext }).toEqual(c.content);
    }
    // Read by slug, `fields` echoes the slug too (Ghost's answers).
    expect(first(await t.content.get('/posts/slug/members-plain/?fields=title,html'), 'posts')).toEqual({
      slug: 'members-plain',
      title: 'members-plain',
      html: '',
    });
    expect(first(await t.content.get('/posts/slug/members-plain/?fields=title,html,access'), 'posts')).toEqual({
      slug: 'members-plain',
      title: 'members-plain',
      html: '',
      access: false,
    });
  });
});

// Gated blocks (html cards with web visibility): an anonymous reader keeps the `nonMember:true` blocks only,
// on a public post; a members post without the marker is emptied whatever its blocks (Ghost's answers).
describe('Content API gated blocks for an anonymous reader', () => {
  it('keeps the blocks for visitors on a public post and recomputes the text; empties a members post', async () => {
    for (const [slug, visibility] of [
      ['gated-public', 'public'],
      ['gated-members', 'members'],
    ]) {
      expect((await t.admin.post('/posts/', { posts: [{ title: slug, slug, status: 'published', visibility, lexical: GATED_BLOCKS }] })).statusCode).toBe(201);
    }
    const open = first(await t.content.get('/posts/slug/gated-public/?formats=html,plaintext'), 'posts');
    expect(open).toMatchObject({
      access: true,
      html: '<p>Open words.</p>\n\n<!--kg-card-begin: html-->\n<p>Only visitors see this.</p>\n<!--kg-card-end: html-->\n\n\n\n\n\n',
      excerpt: 'Open words.\n\n\n\n\nOnly visitors see this.\n\n\n\n\n\n\n',
      plaintext: 'Open words.\n\n\n\n\nOnly visitors see this.\n\n\n\n\n\n\n',
    });
    const closed = first(await t.content.get('/posts/slug/gated-members/?formats=html,plaintext'), 'posts');
    expect(closed).toMatchObject({ access: false, html: '', excerpt: '', plaintext: '' });
  });
});
