import { expect, it } from 'vitest';
import { adminAuth, bootstrap, SITE_URL } from '../../../test/support.js';
import { NOBODY, useTestSite, withTestSite } from '../../../test/test-site.js';

const t = useTestSite({ setup: 'none' });

it('answers GET /site/ without authentication, as an object', async () => {
  const res = await t.admin.get('/site/', NOBODY);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-version']).toBe('v5.130');
  const { site } = res.json();
  expect(Object.keys(site)).toEqual([
    'title',
    'description',
    'logo',
    'icon',
    'cover_image',
    'accent_color',
    'locale',
    'url',
    'version',
    'allow_external_signup',
    'site_uuid',
  ]);
  expect(site).toMatchObject({
    title: 'Ghost',
    description: 'Thoughts, stories and ideas.',
    logo: null,
    icon: null,
    accent_color: '#FF1A75',
    locale: 'en',
    url: 'http://127.0.0.1:2368/',
    version: '5.130',
    allow_external_signup: true,
  });
  expect(site.site_uuid).toMatch(/^[0-9a-f-]{36}$/);
});

it('answers integrations and shows the title chosen at setup', async () => {
  const { adminKey } = await bootstrap(t.app);
  const res = await t.admin.get('/site/', adminAuth(adminKey));
  expect(res.statusCode).toBe(200);
  expect(res.json().site.title).toBe('Test Site');
});

it('shows image URLs absolute and refuses outside sign-up while terms must first be accepted', async () => {
  await withTestSite(async (site) => {
    const put = (settings: { key: string; value: unknown }[]) => site.admin.put('/settings/', { settings });
    const shown = async () => (await site.admin.get('/site/', NOBODY)).json().site;
    expect(
      (
        await put([
          { key: 'logo', value: '/content/images/logo.png' },
          { key: 'icon', value: '/content/images/icon.png' },
        ])
      ).statusCode,
    ).toBe(200);
    expect(await shown()).toMatchObject({
      logo: `${SITE_URL}content/images/logo.png`,
      icon: `${SITE_URL}content/images/icon.png`,
      allow_external_signup: true,
    });

    await put([
      { key: 'portal_signup_terms_html', value: '<p>Terms</p>' },
      { key: 'portal_signup_checkbox_required', value: true },
    ]);
    expect((await shown()).allow_external_signup).toBe(false);
    await put([
      { key: 'portal_signup_checkbox_required', value: false },
      { key: 'members_signup_access', value: 'invite' },
    ]);
    expect((await shown()).allow_external_signup).toBe(false);
    await put([{ key: 'members_signup_access', value: 'all' }]);
    expect((await shown()).allow_external_signup).toBe(true);
  });
});
