import { beforeAll, describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { SITE_URL, ghostError, expectGhostError } from './support.js';
import { PEER_EXPORT, PEER_EXPORT_MEMBERS, PEER_STAFF, dataOf, importJson, snapshot, type Row } from './db-support.js';

/**
 * An export written by Ghost 5.130.6 (test/fixtures/db, seeded by seed-peer.mjs) imports, and every post, page,
 * tag, member and user reads back through the Admin and Content APIs as the peer had them.
 */
const t = useTestSite();
const peer = dataOf(PEER_EXPORT_MEMBERS);
const site = SITE_URL.replace(/\/$/, '');
const absolute = (text: unknown) => String(text).replaceAll('__GHOST_URL__', site);
const byId = (table: string) => new Map(peer[table]!.map((row) => [row.id as string, row]));

let problems: Row[];
let slugsBefore: Set<string>;
let eventsBefore: string[];
let actionsBefore: string[];
beforeAll(async () => {
  slugsBefore = new Set((await t.db.selectFrom('posts').select('slug').execute()).map((post) => post.slug));
  eventsBefore = (await t.db.selectFrom('outbox').select('id').execute()).map((event) => event.id);
  actionsBefore = (await t.db.selectFrom('actions').select('id').execute()).map((action) => action.id);
  const res = await importJson(t, PEER_EXPORT_MEMBERS);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['x-cache-invalidate']).toBe('/*');
  const body = res.json();
  expect(body.db).toEqual([]);
  problems = body.problems;
});

describe('POST /db/ with a Ghost 5.130.6 export', () => {
  it('reports the rows it matched with existing ones instead of importing them', () => {
    const duplicated = problems.filter((p) => p.message === 'Entry was not imported and ignored. Detected duplicated entry.');
    // The Owner (same e-mail here), the free tier. The site's default newsletter, unused, took the file's (below).
    expect(duplicated.map((p) => p.help).sort()).toEqual(['Product', 'User']);
    expect(JSON.parse(duplicated.find((p) => p.help === 'User')!.context as string).email).toBe('owner@example.com');
  });

  it('every post and page reads back by uuid with its slug, html, tags, authors and tiers', async () => {
    const tags = byId('tags');
    const users = byId('users');
    const products = byId('products');
    for (const post of peer.posts!) {
      const resource = post.type === 'page' ? 'pages' : 'posts';
      const res = await t.admin.get(`/${resource}/?filter=uuid:${post.uuid}&formats=html,lexical,mobiledoc&include=tags,authors,tiers`);
      const [read] = res.json()[resource];
      expect(read, `${post.slug}`).toBeDefined();
      // A slug the site had already gets -2, as Ghost names it.
      expect(read.slug).toBe(slugsBefore.has(post.slug as string) ? `${post.slug}-2` : post.slug);
      expect(read.title).toBe(post.title);
      expect(read.status).toBe(post.status);
      expect(read.html).toBe(absolute(post.html));
      expect(read.lexical ?? null).toBe(post.lexical === null ? null : absolute(post.lexical));
      expect(read.comment_id).toBe(post.id);
      const tagSlugs = peer.posts_tags!.filter((l) => l.post_id === post.id).map((l) => tags.get(l.tag_id as string)!.slug);
      expect(read.tags.filter((tag: Row) => tag.visibility === 'public').map((tag: Row) => tag.slug)).toEqual(tagSlugs);
      expect(read.tags.at(-1).name).toMatch(/^#Import \d{4}-\d\d-\d\d \d\d:\d\d$/);
      const authorEmails = peer.posts_authors!.filter((l) => l.post_id === post.id).map((l) => users.get(l.author_id as string)!.email);
      expect(read.authors.map((a: Row) => a.email)).toEqual(authorEmails);
      const tierSlugs = peer.posts_products!.filter((l) => l.post_id === post.id).map((l) => products.get(l.product_id as string)!.slug);
      if (post.visibility === 'tiers') expect(read.tiers.map((tier: Row) => tier.slug)).toEqual(tierSlugs);
      if (post.status === 'published' && post.visibility === 'public') {
        const pub = await t.content.get(`/${resource}/slug/${read.slug}/?include=tags,authors`);
        expect(pub.statusCode, post.slug as string).toBe(200);
        const publicPost = pub.json()[resource][0];
        // Links to other sites get Ghost's `?ref=` tagging on the Content API; the others read back unchanged.
        if (!/href="https?:\/\/(?!127\.0\.0\.1:2368)/.test(absolute(post.html))) expect(publicPost.html).toBe(absolute(post.html));
        // Ghost's Content API lists the internal `#Import` tag too.
        expect(publicPost.tags.filter((tag: Row) => tag.visibility === 'public').map((tag: Row) => tag.slug)).toEqual(tagSlugs);
        expect(publicPost.authors.map((a: Row) => a.slug)).toEqual(
          authorEmails.map((email) => (email === 'owner@example.com' ? expect.any(String) : peer.users!.find((u) => u.email === email)!.slug)),
        );
      }
    }
  });

  it('the post meta comes along', async () => {
    const res = await t.admin.get('/posts/slug/published-with-cards/');
    expect(res.json().posts[0]).toMatchObject({ meta_title: 'Meta T', og_title: 'OG T', custom_excerpt: 'Excerpt here', featured: true });
  });

  it('tags keep their slugs and fields', async () => {
    for (const tag of peer.tags!) {
      const res = await t.admin.get(`/tags/slug/${tag.slug}/`);
      expect(res.statusCode, tag.slug as string).toBe(200);
      expect(res.json().tags[0]).toMatchObject({ name: tag.name, description: tag.description, accent_color: tag.accent_color });
    }
  });

  it('the second staff user keeps role and slug, and signs in with the password of the old site', async () => {
    const res = await t.admin.get('/users/slug/eddie/?include=roles');
    expect(res.json().users[0]).toMatchObject({ email: PEER_STAFF.email, status: 'active', roles: [{ name: 'Editor' }] });
    const session = await t.session(PEER_STAFF);
    const me = await t.admin.get('/users/me/', session);
    expect(me.json().users[0].email).toBe(PEER_STAFF.email);
  });

  it('members come with labels, notes, newsletters and tiers', async () => {
    const labels = byId('labels');
    const newsletters = byId('newsletters');
    const products = byId('products');
    for (const member of peer.members!) {
      const res = await t.admin.get(`/members/?filter=email:'${member.email}'&include=tiers`);
      const [read] = res.json().members;
      expect(read, member.email as string).toBeDefined();
      expect(read.name).toBe(member.name);
      expect(read.note).toBe(member.note);
      expect(read.uuid).toBe(member.uuid);
      const labelSlugs = peer.members_labels!.filter((l) => l.member_id === member.id).map((l) => labels.get(l.label_id as string)!.slug);
      expect(read.labels.map((l: Row) => l.slug).sort()).toEqual(labelSlugs.sort());
      // The peer's default newsletter is matched with this site's (same slug).
      const newsletterSlugs = peer.members_newsletters!.filter((l) => l.member_id === member.id).map((l) => newsletters.get(l.newsletter_id as string)!.slug);
      const readSlugs = await Promise.all(
        read.newsletters.map(async (n: Row) => (await t.admin.get(`/newsletters/${n.id}/`)).json().newsletters[0].slug as string),
      );
      expect(readSlugs.sort()).toEqual(newsletterSlugs.sort());
      const tierSlugs = peer.members_products!.filter((l) => l.member_id === member.id).map((l) => products.get(l.product_id as string)!.slug);
      expect(read.tiers.map((tier: Row) => tier.slug)).toEqual(tierSlugs);
    }
  });

  it('the paid tier and the second newsletter are there', async () => {
    const tiers = (await t.admin.get('/tiers/?limit=all')).json().tiers;
    expect(tiers.find((tier: Row) => tier.slug === 'gold')).toMatchObject({ name: 'Gold', monthly_price: 500, yearly_price: 5000, currency: 'USD' });
    const newsletters = (await t.admin.get('/newsletters/?limit=all')).json().newsletters;
    expect(newsletters.find((n: Row) => n.slug === 'weekly')).toMatchObject({ name: 'Weekly', description: 'Once a week', sender_email: null });
    // The fresh site's default newsletter is the file's now, under its name, not a second one beside it.
    const fileDefault = peer.newsletters!.find((n) => n.slug === 'default-newsletter')!;
    expect(newsletters.filter((n: Row) => String(n.slug).startsWith('default-newsletter'))).toEqual([expect.objectContaining({ name: fileDefault.name })]);
  });

  it('settings outside the core group take the file’s values', async () => {
    const settings = (await t.admin.get('/settings/')).json().settings as { key: string; value: unknown }[];
    const value = (key: string) => settings.find((s) => s.key === key)?.value;
    expect(value('description')).toBe('A peer site for imports');
    expect(value('accent_color')).toBe('#123456');
    expect(value('title')).toBe('Peer Site');
  });

  it('records no event per imported row, and no audit actions', async () => {
    const events = await t.db.selectFrom('outbox').select(['id', 'event']).execute();
    expect(events.filter((e) => !eventsBefore.includes(e.id)).map((e) => e.event)).toEqual(['site.changed']);
    const actions = await t.db.selectFrom('actions').select('id').execute();
    expect(actions.filter((a) => !actionsBefore.includes(a.id))).toEqual([]);
  });
});

describe('an import that fails half-way', () => {
  it('leaves the database exactly as it was (a bad member row at the end of the file)', async () => {
    const before = await snapshot(t);
    const file = JSON.parse(PEER_EXPORT_MEMBERS);
    const data = file.db[0].data;
    // Everything before members would import (new slugs and settings); the last member has no e-mail.
    data.settings.find((s: Row) => s.key === 'description').value = 'changed by the failed import';
    data.members.push({ ...data.members[0], id: '6650bb00bb00bb00bb00bb01', email: null, uuid: '5a4c53ee-59b7-406b-a896-55335ac6f69d' });
    const res = await importJson(t, JSON.stringify(file));
    expect(res.statusCode, res.body).toBe(422);
    expect(ghostError(res)).toMatchObject({ type: 'ValidationError', help: 'members' });
    expect(ghostError(res).message).toMatch(/^Import failed: a row of "members" was refused/);
    expect(await snapshot(t)).toEqual(before);
  });

  it('a row that is not an object fails the import before anything is written', async () => {
    const before = await snapshot(t);
    const file = JSON.parse(PEER_EXPORT);
    file.db[0].data.posts_tags.push('not a row');
    const res = await importJson(t, JSON.stringify(file));
    expectGhostError(res, { status: 422, message: 'Import failed: a row of "posts_tags" is not an object.' });
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('POST /db/ refusals, with Ghost 5.130.6’s messages', () => {
  it('no file, a file of another type, malformed JSON, JSON without `db`', async () => {
    const none = await t.admin.upload('/db/', { other: 'x' });
    expectGhostError(none, { status: 422, type: 'ValidationError', message: 'Please select a database file to import.' });

    const text = await t.admin.upload('/db/', { importfile: { name: 'x.txt', type: 'text/plain', data: 'hi' } });
    expectGhostError(text, {
      status: 415,
      type: 'UnsupportedMediaTypeError',
      message: 'Unsupported file. Please try any of the following formats: .json,.zip',
    });

    const malformed = await importJson(t, '{bad\n');
    expect(malformed.statusCode).toBe(400);
    expect(ghostError(malformed)).toMatchObject({
      type: 'BadRequestError',
      // JSON.parse's own words, as Ghost passes them on; Node 24 appends the line and column.
      message: expect.stringMatching(/^Expected property name or '}' in JSON at position 1/),
      help: 'check that the import file is valid JSON.',
    });

    const notDb = await importJson(t, '{"x":1}');
    expectGhostError(notDb, { status: 400, type: 'BadRequestError', message: 'Invalid JSON format, expected `{ db: [exportedData] }`' });
  });

  it('a file without meta, or from Ghost 0.x, says why (Ghost sends that by e-mail after answering 200)', async () => {
    const noMeta = await importJson(t, JSON.stringify({ data: {}, other: 1 }));
    expectGhostError(noMeta, { status: 400, type: 'IncorrectUsageError', message: 'Wrong importer structure. `meta` is missing.' });
    const old = await importJson(t, JSON.stringify({ db: [{ meta: { version: '008' }, data: {} }] }));
    expect(ghostError(old)).toMatchObject({ type: 'IncorrectUsageError', message: 'Detected unsupported file structure.' });
  });
});

describe('a Ghost 4 export', () => {
  it('imports: mobiledoc posts, users without the newer columns, renamed settings, a Ghost 1-style `page` flag', async () => {
    const mobiledoc = JSON.stringify({ version: '0.3.1', atoms: [], cards: [['card-markdown', { markdown: '**old**' }]], markups: [], sections: [[10, 0]] });
    const file = {
      db: [
        {
          meta: { exported_on: 1650000000000, version: '4.48.9' },
          data: {
            users: [
              {
                id: 'u4',
                name: 'Four Writer',
                slug: 'four',
                email: 'four@example.com',
                password: 'not-a-hash',
                status: 'active',
                created_at: '2022-04-01 10:00:00',
              },
            ],
            roles: [{ id: 'r4', name: 'Author' }],
            roles_users: [{ id: 'ru4', role_id: 'r4', user_id: 'u4' }],
            tags: [{ id: 't4', name: 'Legacy', slug: 'legacy' }],
            posts: [
              {
                id: 'p4',
                title: 'Ghost four post',
                slug: 'ghost-four-post',
                mobiledoc,
                html: '<p>Old html</p>',
                status: 'published',
                published_at: '2022-04-02 10:00:00',
              },
              { id: 'p5', title: 'Ghost one page', slug: 'ghost-one-page', mobiledoc, page: true, status: 'draft' },
            ],
            posts_tags: [{ id: 'pt4', post_id: 'p4', tag_id: 't4', sort_order: 0 }],
            posts_authors: [{ id: 'pa4', post_id: 'p4', author_id: 'u4', sort_order: 0 }],
            settings: [{ id: 's4', key: 'lang', value: 'de', type: 'blog', group: 'site' }],
          },
        },
      ],
    };
    const res = await importJson(t, JSON.stringify(file));
    expect(res.statusCode, res.body).toBe(200);
    const post = (await t.admin.get('/posts/slug/ghost-four-post/?formats=html,mobiledoc&include=authors,tags')).json().posts[0];
    expect(post.html).toBe('<p>Old html</p>');
    expect(JSON.parse(post.mobiledoc).cards[0][0]).toBe('markdown');
    expect(post.published_at).toBe('2022-04-02T10:00:00.000Z');
    expect(post.authors.map((a: Row) => a.slug)).toEqual(['four']);
    expect(post.tags[0].slug).toBe('legacy');
    const page = (await t.admin.get('/pages/slug/ghost-one-page/?formats=html')).json().pages[0];
    expect(page.status).toBe('draft');
    expect(page.html).toContain('<strong>old</strong>');
    const user = (await t.admin.get('/users/slug/four/')).json().users[0];
    expect(user).toMatchObject({ email: 'four@example.com', comment_notifications: true, created_at: '2022-04-01T10:00:00.000Z' });
    // A password that is no bcrypt hash cannot be used to sign in.
    const login = await t.app.inject({
      method: 'POST',
      url: '/ghost/api/admin/session/',
      headers: { origin: 'http://127.0.0.1:2368' },
      payload: { username: 'four@example.com', password: 'not-a-hash' },
    });
    expect(login.statusCode).not.toBe(201);
    const locale = (await t.admin.get('/settings/')).json().settings.find((s: Row) => s.key === 'locale');
    expect(locale.value).toBe('de');
  });
});
