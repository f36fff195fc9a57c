import { describe, expect, it } from 'vitest';
import { ADMIN, OWNER } from './support.js';
import { useSdks } from './sdk-support.js';
import { useTestSite } from './test-site.js';

// Tiers, newsletters and offers through the official SDKs against a listening server. The Admin SDK has
// newsletters only; tiers and offers are written with raw calls carrying the same token, as clients do.
const t = useTestSite();
const sdk = useSdks(t);

async function raw(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sdk.base}${ADMIN}${path}`, {
    method,
    headers: { ...t.integration(), 'accept-version': 'v5.0', 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

describe('Paid content through the SDKs', () => {
  it('newsletters: add, edit, read and browse with the Admin SDK; errors arrive as Ghost errors', async () => {
    // With `meta` in the answer (opt_in_existing), the SDK hands back the list with its meta, as with Ghost.
    const answer = await sdk.admin.newsletters.add({ name: 'SDK weekly', description: 'Every week' }, { opt_in_existing: true });
    expect(answer.meta).toEqual({ opted_in_member_count: 0 });
    const added = answer[0];
    expect(added).toMatchObject({ name: 'SDK weekly', slug: 'sdk-weekly', status: 'active', sort_order: 1 });
    const edited = await sdk.admin.newsletters.edit({ id: added.id, title_alignment: 'left' });
    expect(edited.title_alignment).toBe('left');
    expect((await sdk.admin.newsletters.read({ id: added.id })).title_alignment).toBe('left');
    const list = await sdk.admin.newsletters.browse({ limit: 'all' });
    expect(list.map((n: { name: string }) => n.name)).toEqual([OWNER.blogTitle, 'SDK weekly']);
    await expect(sdk.admin.newsletters.add({ name: 'SDK weekly' })).rejects.toMatchObject({
      name: 'ValidationError',
      context: 'A newsletter with the same name already exists',
    });
    await expect(sdk.admin.newsletters.read({ id: '6b01a0b05973b53791bbe3ff' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('tiers and offers written with raw Admin calls are what the Content SDK reads', async () => {
    const tier = await raw('POST', '/tiers/', { tiers: [{ name: 'SDK gold', currency: 'eur', monthly_price: 900, benefits: ['Everything'] }] });
    expect(tier.status).toBe(201);
    const tierId = tier.body.tiers[0].id;
    const offer = await raw('POST', '/offers/', {
      offers: [{ name: 'SDK deal', code: 'sdk deal', type: 'fixed', amount: 100, currency: 'eur', cadence: 'month', duration: 'once', tier: { id: tierId } }],
    });
    expect(offer.status).toBe(200);
    const bad = await raw('POST', '/offers/', {
      offers: [{ name: 'SDK deal', code: 'other', type: 'percent', amount: 5, cadence: 'month', duration: 'once', tier: { id: tierId } }],
    });
    expect(bad).toMatchObject({ status: 400, body: { errors: [{ type: 'InvalidOfferName' }] } });

    const tiers = await sdk.content.tiers.browse({ include: 'monthly_price,yearly_price,benefits' });
    expect(tiers.map((x: { slug: string }) => x.slug)).toEqual(['free', 'default-product', 'sdk-gold']);
    expect(tiers[2]).toMatchObject({ currency: 'eur', monthly_price: 900, yearly_price: 5000, benefits: ['Everything'] });
    expect(tiers.meta.pagination).toMatchObject({ total: 3 });

    const served = await sdk.content.offers.read({ id: offer.body.offers[0].id });
    expect(served).toMatchObject({ name: 'SDK deal', type: 'fixed', currency: 'EUR', tier: { id: tierId, name: 'SDK gold' } });
    expect(served).not.toHaveProperty('code');
    // The Admin SDK (1.14.13, the newest) has no `offers`; the Content SDK reads them and reports Ghost's errors.
    await expect(sdk.content.offers.read({ id: '6b01a0b05973b53791bbe3ff' })).rejects.toMatchObject({ name: 'NotFoundError' });
    const edited = await raw('PUT', `/offers/${offer.body.offers[0].id}/`, { offers: [{ display_title: 'Deal of the week' }] });
    expect(edited).toMatchObject({ status: 200, body: { offers: [{ display_title: 'Deal of the week', code: 'sdk-deal' }] } });
    expect((await sdk.content.offers.read({ id: offer.body.offers[0].id })).display_title).toBe('Deal of the week');
    expect(await raw('PUT', '/offers/6b01a0b05973b53791bbe3ff/', { offers: [{ name: 'Nobody' }] })).toMatchObject({
      status: 404,
      body: { errors: [{ type: 'NotFoundError' }] },
    });

    const newsletters = await sdk.content.newsletters.browse();
    expect(newsletters.map((n: { slug: string }) => n.slug)).toEqual(['default-newsletter', 'sdk-weekly']);
  });
});
