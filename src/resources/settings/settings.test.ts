import { describe, expect, it } from 'vitest';
import { ghostError, SITE_URL } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { NOBODY, useTestSite } from '../../../test/test-site.js';
import { SETTINGS, SETTING_KEYS } from '../../settings/keys.js';

const t = useTestSite();

type Setting = { key: string; value: unknown };
const adminSettings = async (query = '') => {
  const res = await t.admin.get(`/settings/${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { settings: Setting[]; meta: Record<string, unknown> };
};
const valueOf = (settings: Setting[], key: string) => settings.find((setting) => setting.key === key)?.value;

const CALCULATED = [
  'members_enabled',
  'members_invite_only',
  'allow_self_signup',
  'paid_members_enabled',
  'firstpromoter_account',
  'donations_enabled',
  'default_email_address',
  'support_email_address',
  'all_blocked_email_domains',
  'social_web_enabled',
  'web_analytics_enabled',
  'web_analytics_configured',
];

/**
 * The Content API object of Ghost 5.130.6, key for key and in its order (recorded from the peer), with Ghost 6's
 * additions where Ghost 6 lists them (the social accounts, Portal's gift prompts, Transistor's Portal section).
 */
const CONTENT_KEYS =
  'title,description,logo,icon,accent_color,cover_image,facebook,twitter,threads,bluesky,mastodon,tiktok,youtube,instagram,linkedin,locale,timezone,codeinjection_head,codeinjection_foot,navigation,secondary_navigation,meta_title,meta_description,og_image,og_title,og_description,twitter_image,twitter_title,twitter_description,members_support_address,members_enabled,donations_enabled,allow_self_signup,members_invite_only,members_signup_access,paid_members_enabled,firstpromoter_account,portal_button_style,portal_button_signup_text,portal_button_icon,portal_signup_terms_html,portal_signup_checkbox_required,portal_signup_gift_promotion,portal_account_gift_promotion,portal_plans,portal_default_plan,portal_name,portal_button,comments_enabled,recommendations_enabled,outbound_link_tagging,default_email_address,support_email_address,editor_default_email_recipients,labs,transistor_portal_enabled,transistor_portal_heading,transistor_portal_description,transistor_portal_button_text,transistor_portal_url_template,site_uuid,lang,url,version'.split(
    ',',
  );

describe('GET /settings/ (Admin)', () => {
  it("lists every setting outside core in Ghost's order, then the calculated keys, in Ghost's formats", async () => {
    const { settings, meta } = await adminSettings();
    expect(meta).toEqual({});
    const stored = SETTING_KEYS.filter((key) => SETTINGS[key].group !== 'core');
    expect(settings.map((setting) => setting.key)).toEqual([...stored, ...CALCULATED]);
    expect(settings.every((setting) => Object.keys(setting).join() === 'key,value')).toBe(true);
    expect(
      settings.filter((setting) =>
        ['title', 'logo', 'meta_title', 'is_private', 'navigation', 'labs', 'donations_suggested_amount', 'stripe_connect_livemode'].includes(setting.key),
      ),
    ).toEqual([
      { key: 'title', value: 'Test Site' },
      { key: 'logo', value: '' },
      { key: 'navigation', value: '[{"label":"Home","url":"/"},{"label":"About","url":"/about/"}]' },
      { key: 'meta_title', value: null },
      { key: 'is_private', value: false },
      { key: 'stripe_connect_livemode', value: null },
      {
        key: 'labs',
        value:
          '{"audienceFeedback":true,"i18n":true,"themeErrorsNotification":true,"announcementBar":true,"customFonts":true,"contentVisibility":true,"members":true}',
      },
      { key: 'donations_suggested_amount', value: '500' },
    ]);
    expect(valueOf(settings, 'public_hash')).toMatch(/^[0-9a-f]{30}$/);
    expect(settings.slice(-CALCULATED.length)).toEqual([
      { key: 'members_enabled', value: true },
      { key: 'members_invite_only', value: false },
      { key: 'allow_self_signup', value: true },
      { key: 'paid_members_enabled', value: false },
      { key: 'firstpromoter_account', value: null },
      { key: 'donations_enabled', value: false },
      { key: 'default_email_address', value: 'noreply@127.0.0.1' },
      { key: 'support_email_address', value: 'noreply@127.0.0.1' },
      { key: 'all_blocked_email_domains', value: [] },
      { key: 'social_web_enabled', value: false },
      { key: 'web_analytics_enabled', value: false },
      { key: 'web_analytics_configured', value: false },
    ]);
  });

  it('never shows core settings', async () => {
    const { settings } = await adminSettings();
    const core = SETTING_KEYS.filter((key) => SETTINGS[key].group === 'core');
    expect(core).toContain('admin_session_secret');
    expect(settings.filter((setting) => (core as string[]).includes(setting.key))).toEqual([]);
    expect((await adminSettings('?group=core')).settings).toEqual([]);
  });

  it('keeps only the groups asked for, calculated keys included, and echoes the filter', async () => {
    const { settings, meta } = await adminSettings('?group=email,firstpromoter');
    expect(meta).toEqual({ filters: { group: 'email,firstpromoter' } });
    expect(settings.map((setting) => setting.key)).toEqual([
      'mailgun_domain',
      'mailgun_api_key',
      'mailgun_base_url',
      'email_track_opens',
      'email_track_clicks',
      'email_verification_required',
      'firstpromoter',
      'firstpromoter_id',
      'firstpromoter_account',
      'default_email_address',
      'support_email_address',
    ]);
  });

  it('is readable by every staff role and by integrations, and by nobody else', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    expect((await t.admin.get('/settings/', await t.session(contributor))).statusCode).toBe(200);
    expect((await t.admin.get('/settings/', t.integration())).statusCode).toBe(200);
    const anonymous = await t.admin.get('/settings/', NOBODY);
    expect(anonymous.statusCode).toBe(403);
    expect(ghostError(anonymous).message).toBe('Authorization failed');
  });
});

describe('GET /settings/ (Content)', () => {
  it("answers Ghost's public object: its keys in its order, empty strings as null, parsed arrays and booleans", async () => {
    const res = await t.content.get('/settings/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0');
    const { settings, meta } = res.json();
    expect(meta).toEqual({});
    expect(Object.keys(settings)).toEqual(CONTENT_KEYS);
    expect(settings).toMatchObject({
      title: 'Test Site',
      logo: null,
      icon: null,
      codeinjection_head: null,
      meta_title: null,
      navigation: [
        { label: 'Home', url: '/' },
        { label: 'About', url: '/about/' },
      ],
      secondary_navigation: [{ label: 'Sign up', url: '#/portal/' }],
      members_support_address: 'noreply',
      members_enabled: true,
      portal_plans: ['free'],
      portal_name: true,
      portal_button: false,
      comments_enabled: 'off',
      outbound_link_tagging: true,
      labs: {},
      lang: 'en',
      locale: 'en',
      url: SITE_URL,
      version: '5.130',
    });
    expect(settings.site_uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('needs a content key', async () => {
    const res = await t.app.inject({ url: '/ghost/api/content/settings/' });
    expect(res.statusCode).toBe(403);
    expect(ghostError(res).message).toBe('Authorization failed');
  });
});
