import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makePost, makeStaff } from '../../test/factories.js';
import { themeZip } from '../../test/uploads.js';
import { useTestSite } from '../../test/test-site.js';

/**
 * Every answer with `X-Cache-Invalidate: /*` records exactly one `site.changed` in the outbox, and no
 * other answer records one (Ghost fires the event from the header). Covers the writes that record it
 * through their route (`invalidatesSite`) or their service since the events work.
 */
const t = useTestSite();

const siteChanges = async () =>
  Number(
    (
      await t.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event', '=', 'site.changed')
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Runs the call and checks its answer's header against the site.changed events it added. */
async function expectSiteChange(call: () => Promise<LightMyRequestResponse>, invalidates: boolean, status?: number) {
  const before = await siteChanges();
  const res = await call();
  if (status !== undefined) expect(res.statusCode).toBe(status);
  expect(res.headers['x-cache-invalidate']).toBe(invalidates ? '/*' : undefined);
  expect(await siteChanges()).toBe(before + (invalidates ? 1 : 0));
  return res;
}

it('offers, tiers, newsletters, labels, recommendations: each write that purges the cache records site.changed', async () => {
  const paid = ((await t.admin.get('/tiers/')).json().tiers as { id: string; type: string }[]).find((tier) => tier.type === 'paid')!.id;
  const offer = { name: 'Half', code: 'half', type: 'percent', cadence: 'month', amount: 50, duration: 'once', tier: { id: paid } };
  const added = await expectSiteChange(() => t.admin.post('/offers/', { offers: [offer] }), true, 200);
  await expectSiteChange(() => t.admin.put(`/offers/${added.json().offers[0].id}/`, { offers: [{ name: 'Half off' }] }), true, 200);
  // A refused write records nothing and purges nothing.
  await expectSiteChange(() => t.admin.post('/offers/', { offers: [{ ...offer, name: 'Other' }] }), false, 400);

  const tier = await expectSiteChange(
    () => t.admin.post('/tiers/', { tiers: [{ name: 'Gold', monthly_price: 100, yearly_price: 1000, currency: 'usd' }] }),
    true,
    201,
  );
  await expectSiteChange(() => t.admin.put(`/tiers/${tier.json().tiers[0].id}/`, { tiers: [{ description: 'Shiny' }] }), true, 200);

  const newsletter = await expectSiteChange(() => t.admin.post('/newsletters/', { newsletters: [{ name: 'Weekly' }] }), true, 201);
  await expectSiteChange(() => t.admin.put(`/newsletters/${newsletter.json().newsletters[0].id}/`, { newsletters: [{ description: 'Each week' }] }), true, 200);

  // Labels: adding does not purge; an edit does only when something changed; a delete always does.
  const label = await expectSiteChange(() => t.admin.post('/labels/', { labels: [{ name: 'Readers' }] }), false, 201);
  const labelId = label.json().labels[0].id as string;
  await expectSiteChange(() => t.admin.put(`/labels/${labelId}/`, { labels: [{ name: 'Readers' }] }), false, 200);
  await expectSiteChange(() => t.admin.put(`/labels/${labelId}/`, { labels: [{ name: 'Loyal readers' }] }), true, 200);
  await expectSiteChange(() => t.admin.del(`/labels/${labelId}/`), true, 204);

  const recommendation = await expectSiteChange(
    () => t.admin.post('/recommendations/', { recommendations: [{ title: 'Friend', url: 'https://friend.example/' }] }),
    true,
    201,
  );
  const recommendationId = recommendation.json().recommendations[0].id as string;
  await expectSiteChange(() => t.admin.post('/recommendations/check/', { recommendations: [{ url: 'https://friend.example/' }] }), true, 200);
  await expectSiteChange(() => t.admin.put(`/recommendations/${recommendationId}/`, { recommendations: [{ title: 'Best friend' }] }), true, 200);
  await expectSiteChange(() => t.admin.del(`/recommendations/${recommendationId}/`), true, 204);

  // Members never purge the site's cache (Ghost's members controller says so).
  await expectSiteChange(() => t.admin.post('/members/', { members: [{ email: 'quiet@example.com' }] }), false, 201);
});

it('users and themes: a public profile change, a user deleted, a theme activated, uploaded over the active one or deleted', async () => {
  const owner = (await t.admin.get('/users/me/')).json().users[0].id as string;
  await expectSiteChange(() => t.admin.put(`/users/${owner}/`, { users: [{ bio: 'Writes things' }] }), true, 200);
  // A private field (the e-mail) changes nothing the site shows.
  await expectSiteChange(() => t.admin.put(`/users/${owner}/`, { users: [{ email: 'owner-new@example.com' }] }), false, 200);
  const author = await makeStaff(t, 'Author');
  await expectSiteChange(() => t.admin.del(`/users/${author.id}/`), true, 200);

  const zip = { file: { name: 'My Theme.zip', type: 'application/zip', data: await themeZip('my-theme') } };
  await expectSiteChange(() => t.admin.upload('/themes/upload/', zip), false, 200);
  await expectSiteChange(() => t.admin.put('/themes/My-Theme/activate/'), true, 200);
  // Uploading over the active theme changes the site: the files are not in the database, the event is.
  await expectSiteChange(() => t.admin.upload('/themes/upload/', zip), true, 200);
  await expectSiteChange(() => t.admin.put('/themes/quire/activate/'), true, 200);
  await expectSiteChange(() => t.admin.del('/themes/My-Theme/'), true, 204);
});

it('posts bulk edit and bulk delete record one site.changed each (Ghost fires no post events for them)', async () => {
  const id = await makePost(t, { title: 'Bulk one', status: 'published' });
  const filter = encodeURIComponent(`id:${id}`);
  await expectSiteChange(() => t.admin.put(`/posts/bulk/?filter=${filter}`, { bulk: { action: 'feature' } }), true, 200);
  // Refused: no filter. Nothing recorded, nothing purged.
  await expectSiteChange(() => t.admin.put('/posts/bulk/', { bulk: { action: 'feature' } }), false);
  const events = async () => (await t.db.selectFrom('outbox').select('event').where('resource_id', '=', id).execute()).length;
  const before = await events();
  await expectSiteChange(() => t.admin.del(`/posts/?filter=${filter}`), true, 200);
  expect(await events()).toBe(before);
});
