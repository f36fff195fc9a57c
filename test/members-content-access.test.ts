import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT } from './support.js';
import { useTestSite } from './test-site.js';
import { MEMBERS, cookiesOf, followMagicLink } from './members-support.js';
import { MailSink } from './mail-support.js';
import { GATED_BLOCKS, lexicalDocument, lexicalParagraph } from './factories.js';

/**
 * The Content API reads the member's session cookie (and, with MEMBERS_BEARER_TOKENS, an identity token) for
 * `access` and gated html, as Ghost does; kept answers (the response cache is on) never cross from one
 * member's access to another's, nor to anonymous readers.
 */
const mail = new MailSink();
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, MEMBERS_BEARER_TOKENS: 'true', RESPONSE_CACHE_MB: '8' }) });

const lexical = lexicalDocument(lexicalParagraph('Free part'), { type: 'paywall', version: 1 }, lexicalParagraph('Secret part'));

let ip = 1;
async function signUp(email: string): Promise<string> {
  return cookiesOf((await followMagicLink(t.app, mail, { email, emailType: 'signup' }, `10.6.0.${ip++}`)).opened);
}

const read = (slug: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `${CONTENT}/posts/slug/${slug}/?key=${t.keys.contentKey}`, headers }).then((res) => {
    expect(res.statusCode).toBe(200);
    return res.json().posts[0] as { access: boolean; html: string };
  });

let paidTier = '';
beforeAll(async () => {
  paidTier = (await t.db.selectFrom('products').select('id').where('type', '=', 'paid').executeTakeFirstOrThrow()).id;
  for (const [slug, visibility] of [
    ['for-members', 'members'],
    ['for-paid', 'paid'],
    ['for-tier', 'tiers'],
  ] as const) {
    const res = await t.admin.post('/posts/', {
      posts: [{ title: slug, slug, status: 'published', visibility, lexical, ...(visibility === 'tiers' ? { tiers: [{ id: paidTier }] } : {}) }],
    });
    expect(res.statusCode).toBe(201);
  }
});

describe('Content API access for members', () => {
  it('gates members-only posts for visitors and opens them to a signed-in member, without crossing cached answers', async () => {
    const anonymous = await read('for-members');
    expect(anonymous.access).toBe(false);
    expect(anonymous.html).toContain('Free part');
    expect(anonymous.html).not.toContain('Secret part');

    const cookie = await signUp('content.reader@example.com');
    const member = await read('for-members', { cookie });
    expect(member.access).toBe(true);
    expect(member.html).toContain('Secret part');

    // The anonymous answer kept in the cache is still the gated one, and the member's is not served to others.
    expect((await read('for-members')).html).not.toContain('Secret part');
    expect((await read('for-members', { cookie: 'ghost-members-ssr=forged; ghost-members-ssr.sig=forged' })).access).toBe(false);
    expect((await read('for-members', { cookie })).html).toContain('Secret part');
  });

  it('keeps paid and tier posts from free members, and opens them once the member holds the tier', async () => {
    const cookie = await signUp('free.reader@example.com');
    expect((await read('for-paid', { cookie })).access).toBe(false);
    expect((await read('for-tier', { cookie })).access).toBe(false);
    const id = (await t.db.selectFrom('members').select('id').where('email', '=', 'free.reader@example.com').executeTakeFirstOrThrow()).id;
    expect((await t.admin.put(`/members/${id}/`, { members: [{ tiers: [{ id: paidTier }] }] })).statusCode).toBe(200);
    const paid = await read('for-paid', { cookie });
    expect(paid.access).toBe(true);
    expect(paid.html).toContain('Secret part');
    expect((await read('for-tier', { cookie })).access).toBe(true);
    // Another free member still sees the gated versions.
    const other = await signUp('other.free@example.com');
    expect((await read('for-paid', { cookie: other })).access).toBe(false);
  });

  it("resolves gated blocks for the member's segment: a free member sees the members' block, not the visitors' or the paid one", async () => {
    expect((await t.admin.post('/posts/', { posts: [{ title: 'Blocks', slug: 'blocks', status: 'published', lexical: GATED_BLOCKS }] })).statusCode).toBe(201);
    const visitor = await read('blocks');
    expect([visitor.html.includes('Only visitors'), visitor.html.includes('Only members'), visitor.html.includes('Paid only')]).toEqual([true, false, false]);
    const free = await read('blocks', { cookie: await signUp('blocks.reader@example.com') });
    expect([free.html.includes('Only visitors'), free.html.includes('Only members'), free.html.includes('Paid only')]).toEqual([false, true, false]);
  });

  it('takes an identity token as a Bearer token (MEMBERS_BEARER_TOKENS), and refuses a bad one as anonymous', async () => {
    const cookie = await signUp('headless@example.com');
    const token = (await t.app.inject({ url: `${MEMBERS}/session/`, headers: { cookie } })).body;
    const viaToken = await read('for-members', { authorization: `Bearer ${token}`, origin: 'https://frontend.example' });
    expect(viaToken.access).toBe(true);
    expect(viaToken.html).toContain('Secret part');
    const forged = `${token.slice(0, -6)}AAAAAA`;
    expect((await read('for-members', { authorization: `Bearer ${forged}` })).access).toBe(false);
    // The browse answers follow the same rules.
    const list = await t.app.inject({
      url: `${CONTENT}/posts/?key=${t.keys.contentKey}&filter=slug:for-members`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json().posts[0].access).toBe(true);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${CONTENT}/posts/`,
      headers: { origin: 'https://frontend.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('authorization');
  });
});
