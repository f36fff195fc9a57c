import { describe, expect, it } from 'vitest';
import { ghostError, expectGhostError, countRows } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const paidTier = async () => await t.db.selectFrom('products').select(['id', 'name']).where('slug', '=', 'default-product').executeTakeFirstOrThrow();
const offerCount = () => countRows(t, 'offers');

async function addOffer(offer: Record<string, unknown>) {
  const tier = await paidTier();
  return t.admin.post('/offers/', { offers: [{ type: 'percent', cadence: 'month', amount: 10, duration: 'once', tier: { id: tier.id }, ...offer }] });
}

describe('Admin offers', () => {
  it('adds an offer: 200 with Location and a cache purge, code slugified, texts trimmed', async () => {
    const tier = await paidTier();
    const res = await addOffer({
      name: 'Black Friday',
      code: 'Black Friday!',
      display_title: ' BF ',
      amount: 20,
      duration: 'repeating',
      duration_in_months: 3,
      currency: 'usd',
    });
    expect(res.statusCode).toBe(200);
    const offer = first(res, 'offers');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/offers/${offer.id}/`);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(offer).toEqual({
      id: offer.id,
      name: 'Black Friday',
      code: 'black-friday',
      display_title: 'BF',
      display_description: '',
      type: 'percent',
      cadence: 'month',
      amount: 20,
      duration: 'repeating',
      duration_in_months: 3,
      currency_restriction: false,
      currency: null,
      status: 'active',
      redemption_count: 0,
      tier: { id: tier.id, name: tier.name },
      created_at: offer.created_at,
      last_redeemed: null,
    });
    expect(first(await t.admin.get(`/offers/${offer.id}/`), 'offers')).toEqual(offer);
  });

  it('fixed offers keep an upper-case currency; trial offers count days', async () => {
    const fixed = first(await addOffer({ name: 'Fixed', code: 'fixed', type: 'fixed', cadence: 'year', amount: 500, currency: 'eur' }), 'offers');
    expect(fixed).toMatchObject({ type: 'fixed', currency_restriction: true, currency: 'EUR', amount: 500, duration: 'once', duration_in_months: null });
    const trial = first(await addOffer({ name: 'Trial', code: 'trial', type: 'trial', amount: 14, duration: 'trial' }), 'offers');
    expect(trial).toMatchObject({ type: 'trial', amount: 14, duration: 'trial', currency: null });
  });

  it('browses every offer without meta; a filter reads only status', async () => {
    const res = await t.admin.get('/offers/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('meta');
    expect(res.json().offers.map((o: { code: string }) => o.code)).toEqual(['black-friday', 'fixed', 'trial']);
    expect((await t.admin.get('/offers/?filter=name:Fixed')).json().offers).toHaveLength(3);
    expect((await t.admin.get('/offers/?filter=status:archived')).json().offers).toEqual([]);
  });

  it('edits name, code, texts and status only; codes may change again', async () => {
    const offer = first(await addOffer({ name: 'Editable', code: 'editable' }), 'offers');
    const res = await t.admin.put(`/offers/${offer.id}/`, {
      offers: [{ name: 'Edited', code: 'New Code', display_description: ' hi ', status: 'archived', amount: 99, type: 'fixed' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(first(res, 'offers')).toMatchObject({
      name: 'Edited',
      code: 'new-code',
      display_description: 'hi',
      status: 'archived',
      amount: 10,
      type: 'percent',
    });
    expect(first(await t.admin.put(`/offers/${offer.id}/`, { offers: [{ code: 'newer' }] }), 'offers').code).toBe('newer');
    expect((await t.admin.get('/offers/?filter=status:archived')).json().offers.map((o: { id: string }) => o.id)).toEqual([offer.id]);
    expect((await t.admin.get('/offers/?filter=status:-archived')).json().offers).toHaveLength(3);
    expect(ghostError(await t.admin.put(`/offers/${offer.id}/`, { offers: [{ name: 'Fixed' }] }))).toMatchObject({
      type: 'InvalidOfferName',
      message: 'Validation error, cannot edit offer.',
    });
  });
});

describe('Admin offers: validation', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['a taken name', { name: 'black friday', code: 'c1' }, 'InvalidOfferName', "Offer 'name' must be unique. Please change and try again."],
    ['a taken code', { name: 'X1', code: 'BLACK friday' }, 'InvalidOfferCode', "Offer 'code' must be unique. Please change and try again."],
    ['a long name', { name: 'n'.repeat(41), code: 'c2' }, 'InvalidOfferName', 'Offer `name` can be a maximum of 40 characters.'],
    ['no code', { name: 'X2' }, 'InvalidOfferCode', 'Offer `code` must be a string.'],
    ['a percentage over 100', { name: 'X3', code: 'c3', amount: 101 }, 'InvalidOfferAmount', 'Offer `amount` must be an integer between 0 and 100.'],
    [
      'yearly repeating',
      { name: 'X4', code: 'c4', cadence: 'year', duration: 'repeating', duration_in_months: 2 },
      'InvalidOfferDuration',
      'Offer `duration` must be "once" or "forever" for the "yearly" cadence.',
    ],
    [
      'a trial without trial duration',
      { name: 'X5', code: 'c5', type: 'trial', amount: 7 },
      'InvalidOfferDuration',
      'Offer `duration` must be "trial" for offer type "trial".',
    ],
    ['a fixed offer without currency', { name: 'X6', code: 'c6', type: 'fixed', amount: 100 }, 'InvalidOfferCurrency', 'Offer `currency` must be a string.'],
    [
      'repeating without months',
      { name: 'X7', code: 'c7', duration: 'repeating' },
      'InvalidOfferDuration',
      'Offer `duration` must have include `duration_in_months` when "repeating".',
    ],
    ['an unknown status', { name: 'X8', code: 'c8', status: 'gone' }, 'InvalidOfferStatus', 'Offer `status` must be either "active" or "archived".'],
    ['an unknown type', { name: 'X9', code: 'c9', type: 'free' }, 'InvalidOfferType', 'Offer `type` must be one of "percent", "fixed" or "trial".'],
    ['an unknown cadence', { name: 'X10', code: 'c10', cadence: 'week' }, 'InvalidOfferCadence', 'Offer `cadence` must be one of "month" or "year".'],
  ];
  it.each(cases)('add with %s → 400 %s, nothing written', async (_label, offer, type, context) => {
    const before = await offerCount();
    const res = await addOffer(offer);
    expectGhostError(res, { status: 400, type, message: 'Validation error, cannot save offer.', context });
    expect(await offerCount()).toBe(before);
  });

  it('no root key → 400; an unknown or missing tier → 422 (Ghost: 500)', async () => {
    expect(ghostError(await t.admin.post('/offers/', { offers: [{}] }))).toMatchObject({
      type: 'BadRequestError',
      context: "No root key ('offers') provided.",
    });
    for (const tier of [{ id: UNKNOWN }, undefined]) {
      const res = await addOffer({ name: 'Tierless', code: 'tierless', tier });
      expectGhostError(res, { status: 422, type: 'ValidationError', context: 'Offer `tier` must be the `{id}` of an existing tier.' });
    }
  });
});

describe('Offers: not found, permissions and the Content API', () => {
  it('unknown ids → 404 Offer not found.', async () => {
    expect(ghostError(await t.admin.get(`/offers/${UNKNOWN}/`))).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found error, cannot read offer.',
      context: 'Offer not found.',
    });
    expect(ghostError(await t.admin.put(`/offers/${UNKNOWN}/`, { offers: [{ name: 'x' }] }))).toMatchObject({
      message: 'Resource not found error, cannot edit offer.',
      context: 'Offer not found.',
    });
    expect(ghostError(await t.content.get(`/offers/${UNKNOWN}/`))).toMatchObject({ type: 'NotFoundError', context: 'Offer not found.' });
    expect(ghostError(await t.content.get('/offers/abc/'))).toMatchObject({ context: 'Validation (matches) failed for id undefined.id' });
  });

  it('the Content API shows an offer, archived too, without code, counts or dates', async () => {
    const offer = (await t.admin.get('/offers/?filter=status:archived')).json().offers[0];
    const res = await t.content.get(`/offers/${offer.id}/`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(first(res, 'offers'))).toEqual([
      'id',
      'name',
      'display_title',
      'display_description',
      'type',
      'cadence',
      'amount',
      'duration',
      'duration_in_months',
      'currency_restriction',
      'currency',
      'status',
      'tier',
    ]);
  });

  it('Editors may not read offers; Super Editors may read but not add them', async () => {
    const editor = await t.session(await makeStaff(t, 'Editor'));
    expect((await t.admin.get('/offers/', editor)).statusCode).toBe(403);
    const superEditor = await t.session(await makeStaff(t, 'Super Editor'));
    expect((await t.admin.get('/offers/', superEditor)).statusCode).toBe(200);
    expect(ghostError(await addOfferAs(superEditor))).toMatchObject({ type: 'NoPermissionError', message: 'Permission error, cannot save offer.' });
  });
});

async function addOfferAs(caller: Record<string, string>) {
  const tier = await paidTier();
  const body = { offers: [{ name: 'Nope', code: 'nope', type: 'percent', cadence: 'month', amount: 1, duration: 'once', tier: { id: tier.id } }] };
  return t.admin.post('/offers/', body, caller);
}
