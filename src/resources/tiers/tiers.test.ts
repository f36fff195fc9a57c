import { describe, expect, it } from 'vitest';
import { ghostError, OWNER, expectGhostError, countRows, expectRefused } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const addTier = (tier: Record<string, unknown>) => t.admin.post('/tiers/', { tiers: [tier] });
const tierCount = () => countRows(t, 'products');
const freeTierId = async () => (await t.db.selectFrom('products').select('id').where('type', '=', 'free').executeTakeFirstOrThrow()).id;

describe('Admin tiers', () => {
  it('a new site has the free tier and a paid tier named after the site', async () => {
    const res = await t.admin.get('/tiers/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tiers).toHaveLength(2);
    expect(Object.keys(body.tiers[0])).toEqual([
      'id',
      'name',
      'description',
      'slug',
      'active',
      'type',
      'welcome_page_url',
      'created_at',
      'updated_at',
      'visibility',
      'benefits',
      'trial_days',
    ]);
    expect(body.tiers[0]).toMatchObject({ name: 'Free', slug: 'free', type: 'free', active: true, visibility: 'public', benefits: [], trial_days: 0 });
    expect(body.tiers[1]).toMatchObject({
      name: OWNER.blogTitle,
      slug: 'default-product',
      type: 'paid',
      currency: 'USD',
      monthly_price: 500,
      yearly_price: 5000,
    });
    expect(body.meta).toEqual({ pagination: { page: 1, pages: 1, limit: 2, total: 2, prev: null, next: null } });
  });

  it('adds a paid tier with defaults, upper-cased currency, trimmed and de-duplicated benefits', async () => {
    const res = await addTier({
      name: ' Gold ',
      currency: 'eur',
      monthly_price: 1000,
      benefits: ['Access', 'access', ' Extras '],
      visibility: 'none',
      trial_days: 7,
      type: 'free',
    });
    expect(res.statusCode).toBe(201);
    const tier = first(res, 'tiers');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/tiers/${tier.id}/`);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(tier).toMatchObject({
      name: 'Gold',
      slug: 'gold',
      active: true,
      type: 'paid',
      visibility: 'none',
      currency: 'EUR',
      monthly_price: 1000,
      yearly_price: 5000,
      trial_days: 7,
      benefits: ['Access', 'Extras'],
      description: null,
      welcome_page_url: null,
    });
    expect(first(await t.admin.get(`/tiers/${tier.id}/`), 'tiers')).toEqual(tier);
  });

  it('reuses benefits by name across tiers', async () => {
    const tier = first(await addTier({ name: 'Silver', currency: 'usd', benefits: ['ACCESS', 'New one'] }), 'tiers');
    expect(tier.benefits).toEqual(['ACCESS', 'New one']);
    const stored = await t.db.selectFrom('benefits').select('name').orderBy('name').execute();
    expect(stored.map((b) => b.name)).toEqual(['Access', 'Extras', 'New one']);
  });

  it('browses free first, then by monthly price; filters by type, active and slug', async () => {
    const body = (await t.admin.get('/tiers/')).json();
    expect(body.tiers.map((tier: { slug: string }) => tier.slug)).toEqual(['free', 'default-product', 'silver', 'gold']);
    const paid = (await t.admin.get('/tiers/?filter=type:paid%2Bvisibility:public&limit=1')).json();
    expect(paid.tiers.map((tier: { slug: string }) => tier.slug)).toEqual(['default-product', 'silver']);
    expect(paid.meta.pagination).toMatchObject({ limit: 2, total: 2 });
    const fields = (await t.admin.get('/tiers/?filter=slug:gold&fields=name,slug')).json();
    expect(fields.tiers).toEqual([{ name: 'Gold', slug: 'gold' }]);
    expect((await t.admin.get('/tiers/?filter=trialDays:7')).json().tiers.map((tier: { slug: string }) => tier.slug)).toEqual(['gold']);
  });

  it('edits name, benefits, active and prices; a zero price keeps the old one', async () => {
    const tier = first(await addTier({ name: 'Bronze', currency: 'usd', monthly_price: 300 }), 'tiers');
    const res = await t.admin.put(`/tiers/${tier.id}/`, {
      tiers: [{ name: 'Bronze II', active: false, monthly_price: 0, yearly_price: 3000, benefits: ['Z'], description: '', welcome_page_url: '/welcome/' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(first(res, 'tiers')).toMatchObject({
      name: 'Bronze II',
      slug: 'bronze',
      active: false,
      monthly_price: 300,
      yearly_price: 3000,
      benefits: ['Z'],
      description: null,
      welcome_page_url: '/welcome/',
    });
    expect(first(await t.admin.get(`/tiers/${tier.id}/`), 'tiers').benefits).toEqual(['Z']);
  });

  it('the free tier can be renamed but not priced or given a trial', async () => {
    const id = await freeTierId();
    for (const [body, context] of [
      [{ monthly_price: 100 }, 'Cannot set pricing for free tiers'],
      [{ currency: 'usd' }, 'Cannot set pricing for free tiers'],
      [{ trial_days: 3 }, 'Free Tiers cannot have a trial'],
    ] as const) {
      const res = await t.admin.put(`/tiers/${id}/`, { tiers: [body] });
      expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation error, cannot edit tier.', context });
    }
    const renamed = first(await t.admin.put(`/tiers/${id}/`, { tiers: [{ description: 'No cost' }] }), 'tiers');
    expect(renamed).toMatchObject({ type: 'free', description: 'No cost' });
    expect(renamed).not.toHaveProperty('currency');
  });
});

describe('Admin tiers: validation', () => {
  const cases: [string, unknown, number, string][] = [
    ['no root key', {}, 400, "No root key ('tiers') provided."],
    ['no name', { tiers: [{ currency: 'usd' }] }, 422, 'Validation (FieldIsRequired) failed for ["name"]'],
    ['no currency', { tiers: [{ name: 'x' }] }, 422, 'Tier currency must be a 3 letter ISO currency code'],
    ['a 4-letter currency', { tiers: [{ name: 'x', currency: 'euro' }] }, 422, 'Tier currency must be a 3 letter ISO currency code'],
    ['a negative price', { tiers: [{ name: 'x', currency: 'usd', monthly_price: -1 }] }, 422, 'Tier prices must not be negative'],
    ['a fractional price', { tiers: [{ name: 'x', currency: 'usd', yearly_price: 1.5 }] }, 422, 'Tier prices must be an integer.'],
    ['a huge price', { tiers: [{ name: 'x', currency: 'usd', monthly_price: 10_000_000_000 }] }, 422, 'Tier prices may not exceed 999999.99'],
    ['negative trial days', { tiers: [{ name: 'x', currency: 'usd', trial_days: -1 }] }, 422, 'Tier trials must be an integer greater than 0'],
    ['a benefit not a string', { tiers: [{ name: 'x', currency: 'usd', benefits: [1] }] }, 422, 'Validation failed for benefits[0].'],
    ['an unknown visibility', { tiers: [{ name: 'x', currency: 'usd', visibility: 'secret' }] }, 422, 'Validation failed for visibility.'],
    ['a name of 192', { tiers: [{ name: 'x'.repeat(192), currency: 'usd' }] }, 422, 'Validation failed for name.'],
  ];
  it.each(cases)('add with %s → %d, nothing written', async (_label, body, status, context) => {
    const before = await tierCount();
    const res = await t.admin.post('/tiers/', body);
    expect(res.statusCode).toBe(status);
    expect(ghostError(res).context).toBe(context);
    expect(ghostError(res).message).toMatch(/cannot save tier\.$/);
    expect(await tierCount()).toBe(before);
  });

  it('an unparsable filter → 400', async () => {
    const res = await t.admin.get('/tiers/?filter=type:');
    expectRefused(res, 400, 'list tiers', { context: 'The NQL filter you passed was invalid.' });
  });
});

describe('Admin tiers: not found and permissions', () => {
  it('read and edit of an unknown tier → 404 (Ghost answers 500)', async () => {
    const read = await t.admin.get(`/tiers/${UNKNOWN}/`);
    expectRefused(read, 404, 'read tier', { context: 'Tier not found.' });
    const edit = await t.admin.put(`/tiers/${UNKNOWN}/`, { tiers: [{ name: 'x' }] });
    expectGhostError(edit, { status: 404, message: 'Resource not found error, cannot edit tier.' });
    expect(ghostError(await t.admin.get('/tiers/abc/'))).toMatchObject({ context: 'Validation (matches) failed for id undefined.id' });
  });

  it('Authors may read tiers but not add them; Contributors may not read them', async () => {
    const author = await t.session(await makeStaff(t, 'Author'));
    expect((await t.admin.get('/tiers/', author)).statusCode).toBe(200);
    expect(ghostError(await t.admin.post('/tiers/', { tiers: [{ name: 'Nope', currency: 'usd' }] }, author))).toMatchObject({
      type: 'NoPermissionError',
      message: 'Permission error, cannot save tier.',
    });
    const contributor = await t.session(await makeStaff(t, 'Contributor'));
    expect((await t.admin.get('/tiers/', contributor)).statusCode).toBe(403);
  });
});

describe('Content tiers', () => {
  it('lists active tiers only, with prices, benefits and a lower-case currency', async () => {
    const res = await t.content.get('/tiers/?include=monthly_price');
    expect(res.statusCode).toBe(200);
    const tiers = res.json().tiers as { slug: string; active: boolean; currency?: string; benefits: string[] }[];
    expect(tiers.every((tier) => tier.active)).toBe(true);
    expect(tiers.map((tier) => tier.slug)).not.toContain('bronze');
    const gold = tiers.find((tier) => tier.slug === 'gold')!;
    expect(gold).toMatchObject({ currency: 'eur', monthly_price: 1000, yearly_price: 5000, benefits: ['Access', 'Extras'] });
    const asked = (await t.content.get('/tiers/?filter=active:false')).json();
    expect(asked.tiers).toEqual([]);
  });
});
