import { describe, expect, it } from 'vitest';
import { useSdks } from './sdk-support.js';
import { useTestSite } from './test-site.js';

// Members through the official Admin SDK against a listening server, as an integration would call them.
const t = useTestSite();
const sdk = useSdks(t);

describe('Members through the Admin SDK', () => {
  it('add, read, edit, browse and delete; errors arrive as Ghost errors', async () => {
    const tier = await t.db.selectFrom('products').select(['id', 'slug']).where('type', '=', 'paid').executeTakeFirstOrThrow();
    const added = await sdk.admin.members.add({ email: 'sdk@example.com', name: 'SDK member', labels: ['SDK'] });
    expect(added).toMatchObject({ email: 'sdk@example.com', name: 'SDK member', status: 'free', subscribed: true, labels: [{ name: 'SDK', slug: 'sdk' }] });

    const edited = await sdk.admin.members.edit({ id: added.id, note: 'Comped by the SDK', tiers: [{ id: tier.id }] });
    expect(edited).toMatchObject({ id: added.id, note: 'Comped by the SDK', status: 'comped', comped: true });
    expect(edited.tiers.map((x: { id: string }) => x.id)).toEqual([tier.id]);

    expect(await sdk.admin.members.read({ id: added.id })).toMatchObject({ id: added.id, status: 'comped' });
    await sdk.admin.members.add({ email: 'second@example.com' });
    const list = await sdk.admin.members.browse({ filter: 'label:sdk', include: 'tiers' });
    expect(list.map((m: { email: string }) => m.email)).toEqual(['sdk@example.com']);
    expect(list.meta.pagination).toMatchObject({ page: 1, total: 1 });
    expect((await sdk.admin.members.browse({ search: 'second' })).map((m: { email: string }) => m.email)).toEqual(['second@example.com']);

    await expect(sdk.admin.members.add({ email: 'SDK@example.com' })).rejects.toMatchObject({
      name: 'ValidationError',
      context: 'Member already exists. Attempting to add member with existing email address',
    });
    await expect(sdk.admin.members.add({ email: 'nope' })).rejects.toMatchObject({ name: 'ValidationError', context: 'Invalid Email' });

    await sdk.admin.members.delete({ id: added.id });
    await expect(sdk.admin.members.read({ id: added.id })).rejects.toMatchObject({ name: 'NotFoundError', context: 'Member not found.' });
  });
});
