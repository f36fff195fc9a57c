import { describe, expect, it } from 'vitest';
import { ghostError, SITE_URL, expectRefused } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite, withTestSite, type TestSite } from '../../../test/test-site.js';
import { SETTINGS, SETTING_KEYS } from '../../settings/keys.js';

const t = useTestSite();

type Setting = { key: string; value?: unknown };
const edit = (site: TestSite, ...settings: Setting[]) => site.admin.put('/settings/', { settings });
const stored = (site: TestSite) =>
  site.db
    .selectFrom('settings')
    .select(['key', 'value'])
    .execute()
    .then((rows) => new Map(rows.map((row) => [row.key, row.value])));
const outboxEvents = (site: TestSite) => site.db.selectFrom('outbox').select(['event', 'payload']).execute();
const valueOf = (settings: Setting[], key: string) => settings.find((setting) => setting.key === key)?.value;

/** A valid value for every key Ghost lets the API edit, and what the Admin API shows for it afterwards. */
const EDITS: [key: string, sent: unknown, shown: unknown][] = [
  ['title', 'New Title', 'New Title'],
  ['description', 'About us', 'About us'],
  ['heading_font', 'Inter', 'Inter'],
  ['body_font', 'Lora', 'Lora'],
  ['logo', '/content/images/logo.png', `${SITE_URL}content/images/logo.png`],
  ['cover_image', `${SITE_URL}content/images/cover.jpg`, `${SITE_URL}content/images/cover.jpg`],
  ['icon', '/content/images/size/w256h256/icon.png', `${SITE_URL}content/images/size/w256h256/icon.png`],
  ['accent_color', '#123456', '#123456'],
  ['locale', 'de', 'de'],
  ['timezone', 'Europe/Berlin', 'Europe/Berlin'],
  ['codeinjection_head', '<style></style>', '<style></style>'],
  ['codeinjection_foot', '<script></script>', '<script></script>'],
  ['facebook', 'quire', 'quire'],
  ['twitter', '@quire', '@quire'],
  ['navigation', [{ label: 'A', url: '/a/' }], '[{"label":"A","url":"/a/"}]'],
  ['secondary_navigation', '[]', '[]'],
  ['meta_title', 'Meta', 'Meta'],
  ['meta_description', 'Meta description', 'Meta description'],
  ['og_image', '/content/images/og.png', `${SITE_URL}content/images/og.png`],
  ['og_title', 'OG', 'OG'],
  ['og_description', 'OG description', 'OG description'],
  ['twitter_image', 'https://elsewhere.example/t.png', 'https://elsewhere.example/t.png'],
  ['twitter_title', 'TW', 'TW'],
  ['twitter_description', 'TW description', 'TW description'],
  ['is_private', 'true', true],
  ['password', 'letmein', 'letmein'],
  ['default_content_visibility', 'members', 'members'],
  ['default_content_visibility_tiers', '["free"]', '["free"]'],
  ['members_signup_access', 'paid', 'paid'],
  ['members_support_address', 'help@example.com', 'help@example.com'],
  ['stripe_secret_key', 'sk_test_abc123', '••••••••'],
  ['stripe_publishable_key', 'pk_test_abc123', 'pk_test_abc123'],
  ['portal_name', '0', false],
  ['portal_button', '1', true],
  ['portal_plans', '["free","monthly"]', '["free","monthly"]'],
  ['portal_default_plan', 'monthly', 'monthly'],
  ['portal_button_style', 'text-only', 'text-only'],
  ['firstpromoter', true, true],
  ['firstpromoter_id', 'fp-1', 'fp-1'],
  ['portal_button_icon', '/content/images/button.png', `${SITE_URL}content/images/button.png`],
  ['portal_button_signup_text', 'Join', 'Join'],
  ['portal_signup_terms_html', '<p>Terms</p>', '<p>Terms</p>'],
  ['portal_signup_checkbox_required', 'true', true],
  ['mailgun_api_key', 'key-1', 'key-1'],
  ['mailgun_domain', 'mg.example.com', 'mg.example.com'],
  ['mailgun_base_url', 'https://api.eu.mailgun.net/v3', 'https://api.eu.mailgun.net/v3'],
  ['email_track_opens', false, false],
  ['email_track_clicks', 'false', false],
  ['members_track_sources', false, false],
  ['web_analytics', false, false],
  ['amp', true, true],
  ['amp_gtag_id', 'G-1', 'G-1'],
  ['slack_url', 'https://hooks.slack.com/services/x', 'https://hooks.slack.com/services/x'],
  ['slack_username', 'Bot', 'Bot'],
  ['unsplash', false, false],
  ['shared_views', '[{"name":"Mine"}]', '[{"name":"Mine"}]'],
  ['editor_default_email_recipients', 'filter', 'filter'],
  ['editor_default_email_recipients_filter', 'status:free', 'status:free'],
  ['comments_enabled', 'paid', 'paid'],
  ['outbound_link_tagging', false, false],
  ['announcement_content', '<p>Hello</p>', '<p>Hello</p>'],
  ['announcement_background', 'light', 'light'],
  ['announcement_visibility', ['visitors', 'paid_members'], '["visitors","paid_members"]'],
  ['pintura', false, false],
  ['pintura_js_url', 'https://cdn.example/pintura.js', 'https://cdn.example/pintura.js'],
  ['pintura_css_url', 'https://cdn.example/pintura.css', 'https://cdn.example/pintura.css'],
  ['donations_currency', 'EUR', 'EUR'],
  ['donations_suggested_amount', 900, '900'],
  ['recommendations_enabled', true, true],
  ['blocked_email_domains', ['Spam.example', 'x@Evil.example', 'nodot'], '["Spam.example","x@Evil.example","nodot"]'],
  ['require_email_mfa', true, true],
  ['social_web', false, false],
  ['explore_ping', false, false],
  ['explore_ping_growth', true, true],
  // Ghost 6's keys (migration 0020).
  ['threads', 'https://www.threads.net/@fieldnotes', 'https://www.threads.net/@fieldnotes'],
  ['bluesky', 'https://bsky.app/profile/fieldnotes', 'https://bsky.app/profile/fieldnotes'],
  ['mastodon', 'https://mastodon.social/@fieldnotes', 'https://mastodon.social/@fieldnotes'],
  ['tiktok', 'https://www.tiktok.com/@fieldnotes', 'https://www.tiktok.com/@fieldnotes'],
  ['youtube', 'https://www.youtube.com/@fieldnotes', 'https://www.youtube.com/@fieldnotes'],
  ['instagram', 'https://www.instagram.com/fieldnotes', 'https://www.instagram.com/fieldnotes'],
  ['linkedin', 'https://www.linkedin.com/in/fieldnotes', 'https://www.linkedin.com/in/fieldnotes'],
  ['llms_enabled', false, false],
  ['machine_payments_enabled', true, true],
  ['machine_payments_currency', 'usd', 'usd'],
  ['machine_payments_amount', 250, '250'],
  ['machine_payments_stripe_profile_id', 'prof_1', 'prof_1'],
  ['portal_signup_gift_promotion', false, false],
  ['portal_account_gift_promotion', 'false', false],
  ['transistor', true, true],
  ['transistor_portal_enabled', false, false],
  ['transistor_portal_heading', 'Shows', 'Shows'],
  ['transistor_portal_description', 'Your feed', 'Your feed'],
  ['transistor_portal_button_text', 'Open', 'Open'],
  ['transistor_portal_url_template', 'https://partner.transistor.fm/x/{memberUuid}', 'https://partner.transistor.fm/x/{memberUuid}'],
];

describe('PUT /settings/', () => {
  it('edits every key Ghost lets the API edit, answers the whole list, purges the cache and records site.changed', async () => {
    // require_email_mfa changes how the Owner logs in: a site of its own.
    await withTestSite(async (site) => {
      const editable = SETTING_KEYS.filter((key) => 'editable' in SETTINGS[key]);
      expect([...EDITS.map(([key]) => key), 'labs'].sort()).toEqual([...editable].sort());
      // The site's setup recorded its own site.changed.
      const earlier = (await outboxEvents(site)).length;
      const res = await edit(site, ...EDITS.map(([key, value]) => ({ key, value })), { key: 'labs', value: '{"webmentions":true,"madeUp":true}' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache-invalidate']).toBe('/*');
      const { settings, meta } = res.json();
      expect(meta).toEqual({});
      const shown = Object.fromEntries(EDITS.map(([key]) => [key, valueOf(settings, key)]));
      expect(shown).toEqual(Object.fromEntries(EDITS.map(([key, , value]) => [key, value])));
      expect(JSON.parse(valueOf(settings, 'labs') as string)).toMatchObject({ webmentions: true, members: true });
      expect(JSON.parse(valueOf(settings, 'labs') as string)).not.toHaveProperty('madeUp');
      expect(valueOf(settings, 'all_blocked_email_domains')).toEqual(['spam.example', 'evil.example']);
      expect(valueOf(settings, 'firstpromoter_account')).toBe('fp-1');
      expect(valueOf(settings, 'paid_members_enabled')).toBe(true);
      expect(valueOf(settings, 'support_email_address')).toBe('help@example.com');
      // URLs are stored in Ghost's site-independent form; the icon without its size.
      const rows = await stored(site);
      expect(rows.get('logo')).toBe('__GHOST_URL__/content/images/logo.png');
      expect(rows.get('icon')).toBe('__GHOST_URL__/content/images/icon.png');
      expect(rows.get('is_private')).toBe('true');
      expect((await outboxEvents(site)).slice(earlier)).toEqual([{ event: 'site.changed', payload: '{}' }]);
      // The next read, through any API, sees the change.
      const content = (await site.content.get('/settings/')).json().settings;
      expect(content).toMatchObject({
        title: 'New Title',
        lang: 'de',
        icon: `${SITE_URL}content/images/size/w256h256/icon.png`,
        members_signup_access: 'paid',
      });
    });
  });

  it('drops keys Ghost does not let the API edit, without a purge or an event', async () => {
    const before = await stored(t);
    const eventsBefore = (await outboxEvents(t)).length;
    const res = await edit(
      t,
      { key: 'db_hash', value: 'x' },
      { key: 'active_theme', value: 'casper' },
      { key: 'public_hash', value: 'x' },
      { key: 'email_verification_required', value: true },
      { key: 'stripe_connect_publishable_key', value: 'pk_test_x' },
      { key: 'stripe_connect_integration_token', value: '' },
      { key: 'not_a_setting', value: 1 },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBeUndefined();
    expect(await stored(t)).toEqual(before);
    expect((await outboxEvents(t)).length).toBe(eventsBefore);
  });

  it('ignores a masked secret sent back, stores "" as null, and purges even when nothing changed', async () => {
    await edit(t, { key: 'stripe_secret_key', value: 'sk_test_kept' }, { key: 'stripe_publishable_key', value: 'pk_test_kept' });
    const res = await edit(t, { key: 'stripe_secret_key', value: '••••••••' }, { key: 'meta_title', value: '' }, { key: 'title' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    const rows = await stored(t);
    expect(rows.get('stripe_secret_key')).toBe('sk_test_kept');
    expect(rows.get('meta_title')).toBeNull();
    expect(rows.get('title')).toBe('Test Site');
  });

  it('stores a boolean sent for a text or number key as 1 or 0, as Ghost’s database driver does', async () => {
    const res = await edit(t, { key: 'title', value: true }, { key: 'description', value: false }, { key: 'donations_suggested_amount', value: true });
    expect(res.statusCode).toBe(200);
    const { settings } = res.json() as { settings: Setting[] };
    expect(valueOf(settings, 'title')).toBe('1');
    expect(valueOf(settings, 'description')).toBe('0');
    expect(valueOf(settings, 'donations_suggested_amount')).toBe('1');
    const content = await t.content.get('/settings/');
    expect(content.json().settings).toMatchObject({ title: '1', description: '0' });
  });

  it('lets a first entry through that lodash does not call empty (a non-empty string), and skips entries that are not objects', async () => {
    const skipped = await t.admin.put('/settings/', { settings: ['title', 1, []] });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.headers['x-cache-invalidate']).toBeUndefined();
    const res = await t.admin.put('/settings/', { settings: ['title', { key: 'title', value: 'After a string' }] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect((await stored(t)).get('title')).toBe('After a string');
    for (const first of ['', 0, true, null, [], {}]) {
      const refused = await t.admin.put('/settings/', { settings: [first, { key: 'title', value: 'never' }] });
      expect(refused.statusCode).toBe(400);
      expect(ghostError(refused).context).toBe("No root key ('settings') provided.");
    }
  });

  const INVALID: [name: string, settings: Setting[], status: number, context: string, property?: string][] = [
    ['no root', [], 400, "No root key ('settings') provided."],
    [
      'a title over 150 characters',
      [{ key: 'title', value: 'x'.repeat(151) }],
      422,
      'ValidationError: Value in [settings.title] exceeds maximum length of 150 characters.',
    ],
    [
      'an unknown sign-up access',
      [{ key: 'members_signup_access', value: 'bogus' }],
      422,
      'ValidationError: Validation (isIn) failed for members_signup_access',
    ],
    ['an empty accent colour', [{ key: 'accent_color', value: null }], 422, 'ValidationError: Validation (isEmpty) failed for accent_color'],
    [
      'an empty flag',
      [{ key: 'members_track_sources', value: null }],
      422,
      'ValidationError: Validation (isEmpty) failed for members_track_sources\nValidationError: Validation (isIn) failed for members_track_sources',
    ],
    ['a flag that is not a boolean', [{ key: 'is_private', value: 'yes' }], 422, 'ValidationError: Validation (isIn) failed for is_private'],
    ['an unknown time zone', [{ key: 'timezone', value: 'Mars/Base' }], 422, 'ValidationError: Validation (isTimezone) failed for timezone'],
    ['navigation that is not an array', [{ key: 'navigation', value: 'nope' }], 422, 'Value in navigation should be an array.', 'value'],
    ['a bad support address', [{ key: 'members_support_address', value: 'bad' }], 422, 'Please enter a valid email address.', 'members_support_address'],
    [
      'an unknown announcement audience',
      [{ key: 'announcement_visibility', value: ['bad'] }],
      422,
      'Please enter a valid announcement visibility value',
      'announcement_visibility',
    ],
    [
      'an unknown announcement background',
      [{ key: 'announcement_background', value: 'pink' }],
      422,
      'Please enter a valid announcement background value',
      'announcement_background',
    ],
    [
      'a malformed Stripe key',
      [{ key: 'stripe_secret_key', value: 'bad' }],
      422,
      'stripe_secret_key did not match /(?:sk|rk)_(?:test|live)_[\\da-zA-Z]{1,247}$/',
    ],
    ['labs that are not an object', [{ key: 'labs', value: 'nope' }], 422, 'Value in labs should be an object.'],
    ['a Stripe Connect token', [{ key: 'stripe_connect_integration_token', value: 'abc' }], 400, 'The Stripe Connect token could not be parsed.'],
  ];

  it.each(INVALID)('refuses %s with Ghost’s error, leaving every setting as it was', async (_name, settings, status, context, property) => {
    const before = await stored(t);
    const eventsBefore = (await outboxEvents(t)).length;
    // A valid change first: nothing of a refused edit is kept.
    const res = await t.admin.put('/settings/', { settings: settings.length ? [{ key: 'title', value: 'Half written' }, ...settings] : [] });
    expect(res.statusCode).toBe(status);
    const error = ghostError(res);
    expect(error).toMatchObject({
      message: status === 400 ? 'Request not understood error, cannot edit setting.' : 'Validation error, cannot edit setting.',
      context,
      type: status === 400 ? 'BadRequestError' : 'ValidationError',
      property: property ?? null,
    });
    expect(await stored(t)).toEqual(before);
    expect((await outboxEvents(t)).length).toBe(eventsBefore);
  });

  it('is refused to Editors (403) and to integrations (501), as in Ghost', async () => {
    const editor = await makeStaff(t, 'Editor');
    const asEditor = await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Editor' }] }, await t.session(editor));
    expectRefused(asEditor, 403, 'edit setting');
    const asIntegration = await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Integration' }] }, t.integration());
    expect(asIntegration.statusCode).toBe(501);
    expect(ghostError(asIntegration).type).toBe('NotImplementedError');
    const administrator = await makeStaff(t, 'Administrator');
    expect((await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Test Site' }] }, await t.session(administrator))).statusCode).toBe(200);
  });
});
