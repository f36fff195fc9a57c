import { describe, expect, it } from 'vitest';
import { makeLabel, makeMember, makeNewsletter, makeOffer, makeTier, makeWebhook } from './factories.js';
import { countRows } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();

describe('test factories', () => {
  it('make members, labels, tiers, newsletters and offers that the Admin API reads back', async () => {
    const label = await makeLabel(t, { name: 'Factory label' });
    const member = await makeMember(t, { name: 'Factory member', labels: [{ id: label }] as never });
    const tier = await makeTier(t, { name: 'Factory tier' });
    const newsletter = await makeNewsletter(t, { name: 'Factory newsletter' });
    const offer = await makeOffer(t, { name: 'Factory offer', code: 'factory-offer' });

    const readMember = (await t.admin.get(`/members/${member}/`)).json().members[0];
    expect(readMember).toMatchObject({ id: member, name: 'Factory member', labels: [{ id: label, name: 'Factory label' }] });
    expect((await t.admin.get(`/tiers/${tier}/`)).json().tiers[0]).toMatchObject({ id: tier, name: 'Factory tier', type: 'paid', monthly_price: 500 });
    expect((await t.admin.get(`/newsletters/${newsletter}/`)).json().newsletters[0]).toMatchObject({ id: newsletter, name: 'Factory newsletter' });
    expect((await t.admin.get(`/offers/${offer}/`)).json().offers[0]).toMatchObject({ id: offer, name: 'Factory offer', code: 'factory-offer' });
  });

  it('makes a webhook on an integration of its own', async () => {
    const before = await countRows(t, 'webhooks');
    const webhook = await makeWebhook(t, { event: 'post.added', target_url: 'http://127.0.0.1:9/hook' });
    expect(await countRows(t, 'webhooks')).toBe(before + 1);
    const row = await t.db.selectFrom('webhooks').select(['id', 'event', 'integration_id']).where('id', '=', webhook).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event: 'post.added' });
    expect(row.integration_id).toMatch(/^[0-9a-f]{24}$/);
  });
});
