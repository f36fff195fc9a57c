import { beforeAll, describe, expect, it } from 'vitest';
import { ghostError, SITE_URL, expectGhostError, expectRefused } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { lexicalOf, makePage, makePost, makeStaff } from '../../../test/factories.js';

// Posts and pages meet members on the Admin API: visibility with tiers, and publishing with a newsletter.
// Shapes and errors are Ghost 5.130.6's answers to the same requests (observed on the peer).
const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';
let free: string;
let paid: string;
let newsletterId: string;

beforeAll(async () => {
  const tiers = await t.db.selectFrom('products').select(['id', 'type']).execute();
  free = tiers.find((tier) => tier.type === 'free')!.id;
  paid = tiers.find((tier) => tier.type === 'paid')!.id;
  newsletterId = (await t.db.selectFrom('newsletters').select('id').where('slug', '=', 'default-newsletter').executeTakeFirstOrThrow()).id;
});

const addPost = (fields: Record<string, unknown>, type: 'posts' | 'pages' = 'posts') => t.admin.post(`/${type}/`, { [type]: [{ title: 'Post', ...fields }] });
const slugsOf = (post: Record<string, any>) => (post.tiers as { slug: string }[]).map((tier) => tier.slug);

async function edit(id: string, fields: Record<string, unknown>, query = '', type: 'posts' | 'pages' = 'posts') {
  const current = first(await t.admin.get(`/${type}/${id}/`), type);
  return t.admin.put(`/${type}/${id}/${query}`, { [type]: [{ updated_at: current.updated_at, ...fields }] });
}

describe('Admin posts: visibility and tiers', () => {
  it('lists every tier for public and members posts, paid tiers for paid posts, its own paid tiers for a tiers post', async () => {
    const members = first(await addPost({ visibility: 'members' }), 'posts');
    expect(slugsOf(members)).toEqual(['free', 'default-product']);
    // Ghost's tier entity inside a post: lower-case currency, price ids, no benefits.
    expect(members.tiers[1]).toEqual({
      id: paid,
      name: 'Test Site',
      slug: 'default-product',
      active: true,
      welcome_page_url: null,
      visibility: 'public',
      trial_days: 0,
      description: null,
      type: 'paid',
      currency: 'usd',
      monthly_price: 500,
      yearly_price: 5000,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      monthly_price_id: null,
      yearly_price_id: null,
    });
    expect(members.tiers[0]).toMatchObject({ slug: 'free', type: 'free', currency: null, monthly_price: null, yearly_price: null });
    expect(slugsOf(first(await addPost({ visibility: 'public' }), 'posts'))).toEqual(['free', 'default-product']);
    expect(slugsOf(first(await addPost({ visibility: 'paid' }), 'posts'))).toEqual(['default-product']);

    // The free tier is never linked, repeats collapse, entries without an id name nothing.
    const tiers = first(
      await addPost({ visibility: 'tiers', tiers: [{ id: paid }, { id: free }, { id: paid }, 'default-product', { slug: 'free' }] }),
      'posts',
    );
    expect(tiers.visibility).toBe('tiers');
    expect(slugsOf(tiers)).toEqual(['default-product']);
    // A tiers post's own tiers are the stored rows, whose currency Ghost shows upper-case.
    expect(tiers.tiers[0].currency).toBe('USD');
    expect(await t.db.selectFrom('posts_products').select('product_id').where('post_id', '=', tiers.id).execute()).toEqual([{ product_id: paid }]);
  });

  it('a member-filter visibility shows as tiers, listing the tiers its product statements name', async () => {
    const post = first(await addPost({ slug: 'nql-vis', status: 'published', visibility: 'product:default-product' }), 'posts');
    expect(post.visibility).toBe('tiers');
    expect(post.tiers).toEqual([expect.objectContaining({ slug: 'default-product', currency: 'USD' })]);
    expect(first(await t.content.get('/posts/slug/nql-vis/?include=tiers'), 'posts')).toMatchObject({ visibility: 'tiers', access: false });
    // A filter admitting free and paid members is stored as `members`.
    expect(slugsOf(first(await addPost({ visibility: 'status:free,status:-free' }), 'posts'))).toEqual(['free', 'default-product']);
  });

  it('accepts a tiers visibility without tiers (Ghost does) and lists none', async () => {
    expect(slugsOf(first(await addPost({ visibility: 'tiers' }), 'posts'))).toEqual([]);
    expect(slugsOf(first(await addPost({ visibility: 'tiers', tiers: [] }), 'posts'))).toEqual([]);
  });

  it('an unknown tier id fails as Ghost fails (creating a nameless tier), and nothing is written', async () => {
    const before = await t.db.selectFrom('posts').select('id').execute();
    const res = await addPost({ title: 'Unknown tier', visibility: 'tiers', tiers: [{ id: UNKNOWN }] });
    expectRefused(res, 422, 'save post', { context: 'Value in [products.name] cannot be blank. products.name' });
    expect(await t.db.selectFrom('posts').select('id').execute()).toHaveLength(before.length);

    const page = await addPost({ visibility: 'tiers', tiers: [{ id: UNKNOWN }] }, 'pages');
    expect(ghostError(page)).toMatchObject({ message: 'Validation error, cannot save page.' });

    const post = first(await addPost({ visibility: 'members' }), 'posts');
    const edited = await edit(post.id, { visibility: 'tiers', tiers: [{ id: UNKNOWN }] });
    expectGhostError(edited, { status: 422, message: 'Validation error, cannot edit post.' });
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').visibility).toBe('members');
  });

  it('edits replace the tiers; pages carry tiers too; copies keep them', async () => {
    const page = first(await addPost({ visibility: 'tiers', tiers: [{ id: paid }] }, 'pages'), 'pages');
    expect(slugsOf(page)).toEqual(['default-product']);
    expect(page).not.toHaveProperty('email');
    expect(page).not.toHaveProperty('newsletter');
    const cleared = first(await edit(page.id, { tiers: [] }, '', 'pages'), 'pages');
    expect(slugsOf(cleared)).toEqual([]);

    const post = first(await addPost({ visibility: 'tiers', tiers: [{ id: paid }] }), 'posts');
    const copy = first(await t.admin.post(`/posts/${post.id}/copy/`), 'posts');
    expect(copy.visibility).toBe('tiers');
    expect(slugsOf(copy)).toEqual(['default-product']);
  });

  it('a new post takes the site’s default content visibility, and its default tiers (Ghost’s post defaults)', async () => {
    const set = (settings: { key: string; value: string }[]) => t.admin.put('/settings/', { settings }, t.owner);
    expect(
      (
        await set([
          { key: 'default_content_visibility', value: 'tiers' },
          { key: 'default_content_visibility_tiers', value: JSON.stringify([paid, UNKNOWN]) },
        ])
      ).statusCode,
    ).toBe(200);
    try {
      const byDefault = first(await addPost({ title: 'Default' }), 'posts');
      expect(byDefault.visibility).toBe('tiers');
      expect(slugsOf(byDefault)).toEqual(['default-product']);
      expect(first(await addPost({ visibility: 'public' }), 'posts').visibility).toBe('public');
      expect(slugsOf(first(await addPost({ visibility: 'tiers' }), 'posts'))).toEqual(['default-product']);
      await set([{ key: 'default_content_visibility', value: 'paid' }]);
      expect(first(await addPost({ title: 'Paid default' }), 'posts').visibility).toBe('paid');
    } finally {
      await set([
        { key: 'default_content_visibility', value: 'public' },
        { key: 'default_content_visibility_tiers', value: '[]' },
      ]);
    }
  });

  it('the bulk access action sets the tiers of every matching post', async () => {
    const id = await makePost(t, { title: 'Bulk tiers', tags: ['bulk-tiers'] });
    const res = await t.admin.put('/posts/bulk/?filter=tag:bulk-tiers', { bulk: { action: 'access', meta: { visibility: 'tiers', tiers: [{ id: paid }] } } });
    expect(res.statusCode).toBe(200);
    const post = first(await t.admin.get(`/posts/${id}/`), 'posts');
    expect(post.visibility).toBe('tiers');
    expect(slugsOf(post)).toEqual(['default-product']);
  });

  it('the Content API lists a post’s tiers with include=tiers', async () => {
    await makePost(t, { title: 'Paid read', slug: 'paid-read', status: 'published', visibility: 'paid', lexical: lexicalOf('Paid words') });
    const post = first(await t.content.get('/posts/slug/paid-read/?include=tiers'), 'posts');
    expect(slugsOf(post)).toEqual(['default-product']);
    expect(post.access).toBe(false);
  });
});

describe('Admin posts: publishing with a newsletter', () => {
  it('refuses an unknown newsletter and a bad email segment with Ghost’s errors; the post stays a draft', async () => {
    const id = await makePost(t, { title: 'Refused', lexical: lexicalOf('Hello') });
    const unknown = await edit(id, { status: 'published' }, '?newsletter=nope');
    expectRefused(unknown, 400, 'edit post', { context: "The newsletter parameter doesn't match any active newsletter." });
    const syntax = await edit(id, { status: 'published' }, '?newsletter=default-newsletter&email_segment=bad%20filter');
    expectGhostError(syntax, { status: 400, context: "The email segment parameter doesn't contain a valid filter Error parsing filter" });
    const column = await edit(id, { status: 'published' }, '?newsletter=default-newsletter&email_segment=foo:bar');
    expect(ghostError(column)).toMatchObject({ context: "The email segment parameter doesn't contain a valid filter Unknown filter field 'foo'." });
    expect(first(await t.admin.get(`/posts/${id}/`), 'posts')).toMatchObject({ status: 'draft', newsletter: null, email: null });
    const missing = await t.admin.put(`/posts/${UNKNOWN}/?newsletter=default-newsletter`, {
      posts: [{ status: 'published', updated_at: new Date().toISOString() }],
    });
    expect(missing.statusCode).toBe(404);
  });

  it('publishes with a newsletter: the post shows it and the email row (no recipients: submitted)', async () => {
    const id = await makePost(t, { title: 'Sent to nobody', lexical: lexicalOf('Hello newsletter') });
    const res = await edit(id, { status: 'published' }, '?newsletter=default-newsletter&email_segment=status:free');
    expect(res.statusCode).toBe(200);
    const post = first(res, 'posts');
    expect(post.email_segment).toBe('status:free');
    expect(post.newsletter).toMatchObject({
      id: newsletterId,
      slug: 'default-newsletter',
      status: 'active',
      visibility: 'members',
      sender_reply_to: 'newsletter',
    });
    expect(post.newsletter).not.toHaveProperty('count');
    expect(Object.keys(post.email)).toEqual([
      'id',
      'post_id',
      'uuid',
      'status',
      'recipient_filter',
      'error',
      'error_data',
      'email_count',
      'delivered_count',
      'opened_count',
      'failed_count',
      'subject',
      'from',
      'reply_to',
      'html',
      'plaintext',
      'source',
      'source_type',
      'track_opens',
      'track_clicks',
      'feedback_enabled',
      'submitted_at',
      'newsletter_id',
      'created_at',
      'updated_at',
    ]);
    expect(post.email).toMatchObject({
      post_id: id,
      status: 'submitted',
      recipient_filter: 'status:free',
      error: null,
      email_count: 0,
      subject: 'Sent to nobody',
      from: `noreply@${new URL(SITE_URL).hostname}`,
      reply_to: null,
      html: null,
      plaintext: null,
      source: lexicalOf('Hello newsletter'),
      source_type: 'lexical',
      track_opens: true,
      track_clicks: true,
      feedback_enabled: false,
      newsletter_id: newsletterId,
    });
    const keys = Object.keys(first(await t.admin.get(`/posts/${id}/`), 'posts'));
    expect(keys.slice(keys.indexOf('tags'), keys.indexOf('count') + 1)).toEqual(['tags', 'authors', 'tiers', 'email', 'newsletter', 'count']);

    // Publishing again or editing does not send again; back to draft keeps the newsletter once an email exists.
    const draft = first(await edit(id, { status: 'draft' }), 'posts');
    expect(draft).toMatchObject({ status: 'draft', email_segment: 'status:free', newsletter: { slug: 'default-newsletter' } });
    await edit(id, { status: 'published' }, '?newsletter=default-newsletter');
    expect(await t.db.selectFrom('emails').select('id').where('post_id', '=', id).execute()).toHaveLength(1);

    const counted = (await t.admin.get('/newsletters/?include=count.posts')).json().newsletters[0];
    expect(counted.count.posts).toBeGreaterThanOrEqual(1);
  });

  it('with recipients the email is pending and its send is queued for the job runner (none runs here)', async () => {
    expect((await t.admin.post('/members/', { members: [{ email: 'reader@example.com' }] })).statusCode).toBe(201);
    const id = await makePost(t, { title: 'Sent to one', lexical: lexicalOf('Hello reader'), email_subject: 'Subject line' });
    const post = first(await edit(id, { status: 'published' }, '?newsletter=default-newsletter'), 'posts');
    expect(post.email).toMatchObject({
      status: 'pending',
      error: null,
      email_count: 1,
      recipient_filter: 'all',
      subject: 'Subject line',
    });
    const queued = await t.db.selectFrom('jobs').select(['kind', 'payload', 'status']).where('kind', '=', 'newsletter-prepare').execute();
    expect(queued.filter((job) => JSON.parse(job.payload).emailId === post.email.id)).toMatchObject([{ status: 'pending' }]);
    // A segment no member matches counts nobody.
    const none = await makePost(t, { title: 'Labelled', lexical: lexicalOf('x') });
    expect(first(await edit(none, { status: 'published' }, '?newsletter=default-newsletter&email_segment=label:vip'), 'posts').email).toMatchObject({
      status: 'submitted',
      email_count: 0,
    });
  });

  it('the email is from the newsletter’s sender, named after it or the site (Ghost’s answers)', async () => {
    const added = await t.admin.post('/newsletters/', { newsletters: [{ name: 'Weekly', sender_name: 'Weekly "Q" ✓', sender_email: 'news@example.com' }] });
    expect(added.statusCode).toBe(201);
    const weekly = added.json().newsletters[0];
    const named = await makePost(t, { title: 'W1', lexical: lexicalOf('x') });
    expect(first(await edit(named, { status: 'published' }, '?newsletter=weekly'), 'posts').email.from).toBe('"Weekly \\"Q\\"" <news@example.com>');
    await t.admin.put(`/newsletters/${weekly.id}/`, { newsletters: [{ sender_name: null }] });
    const site = await makePost(t, { title: 'W2', lexical: lexicalOf('x') });
    expect(first(await edit(site, { status: 'published' }, '?newsletter=weekly'), 'posts').email.from).toBe('"Test Site" <news@example.com>');
  });

  it('an email-only post is sent: status sent, e-mail URL, an email row', async () => {
    const id = await makePost(t, { title: 'Only mail', lexical: lexicalOf('Inbox only'), email_only: true });
    const post = first(await edit(id, { status: 'published' }, '?newsletter=default-newsletter&email_segment=label:vip'), 'posts');
    expect(post).toMatchObject({ status: 'sent', email_only: true, email_segment: 'label:vip', newsletter: { slug: 'default-newsletter' } });
    expect(post.url).toMatch(/\/email\/[0-9a-f-]{36}\/$/);
    expect(post.email).toMatchObject({ status: 'submitted', recipient_filter: 'label:vip' });
  });

  it('scheduling keeps the newsletter without an email; publishing later records it', async () => {
    const id = await makePost(t, { title: 'Later', lexical: lexicalOf('Soon') });
    const at = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = first(await edit(id, { status: 'scheduled', published_at: at }, '?newsletter=default-newsletter&email_segment=status:-free'), 'posts');
    expect(scheduled).toMatchObject({ status: 'scheduled', email_segment: 'status:-free', newsletter: { slug: 'default-newsletter' }, email: null });
    const published = first(await edit(id, { status: 'published' }), 'posts');
    expect(published.email).toMatchObject({ recipient_filter: 'status:-free', status: 'submitted' });
  });

  it('the newsletter option is ignored without a status change; a draft going back forgets an unsent newsletter', async () => {
    const id = await makePost(t, { title: 'Ignored', lexical: lexicalOf('x') });
    expect(first(await edit(id, { title: 'Still a draft' }, '?newsletter=default-newsletter'), 'posts').newsletter).toBeNull();
    const later = new Date(Date.now() + 3600_000).toISOString();
    await edit(id, { status: 'scheduled', published_at: later }, '?newsletter=default-newsletter&email_segment=status:free');
    const back = first(await edit(id, { status: 'draft' }), 'posts');
    expect(back).toMatchObject({ status: 'draft', newsletter: null, email_segment: 'all', email: null });
  });

  it('pages take no newsletter: the option is ignored', async () => {
    const id = await makePage(t, { title: 'A page', lexical: lexicalOf('x') });
    const page = first(await edit(id, { status: 'published' }, '?newsletter=default-newsletter', 'pages'), 'pages');
    expect(page.status).toBe('published');
    expect(await t.db.selectFrom('emails').select('id').where('post_id', '=', id).execute()).toEqual([]);
  });

  it('a Contributor cannot publish with a newsletter, nor set a visibility', async () => {
    const user = await makeStaff(t, 'Contributor');
    const contributor = await t.session(user);
    const own = first(await t.admin.post('/posts/', { posts: [{ title: 'Mine', authors: [{ id: user.id }] }] }, contributor), 'posts');
    const res = await t.admin.put(
      `/posts/${own.id}/?newsletter=default-newsletter`,
      { posts: [{ status: 'published', updated_at: own.updated_at }] },
      contributor,
    );
    expect(res.statusCode).toBe(403);
    const vis = await t.admin.put(`/posts/${own.id}/`, { posts: [{ visibility: 'tiers', tiers: [{ id: paid }], updated_at: own.updated_at }] }, contributor);
    expect(vis.statusCode).toBe(403);
    expect(await t.db.selectFrom('emails').select('id').where('post_id', '=', own.id).execute()).toEqual([]);
  });
});
