import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { MigrationFactory } from './factory.js';
import { objectId } from '../ids.js';

/*
 * The rest of Ghost 5.130.6's settings (`default-settings.json`), each with Ghost's default, so every key of
 * the settings API has a row from now on (0001 stored the ones the foundation needed). A frozen copy, not an
 * import of `settings/keys.ts`: this migration must insert the same rows forever. Keys that already have a
 * row keep their value, except `logo` and `icon`, which 0001 stored as null where Ghost stores "" (nothing
 * could set them before the settings API). Secrets Ghost generates on first start are generated here, as
 * Ghost makes them.
 */

interface Generated {
  hex(bytes: number): string;
  ghost: { publicKey: string; privateKey: string };
  members: { publicKey: string; privateKey: string };
}

const ROWS: [group: string, key: string, type: string, value: (s: Generated) => string | null][] = [
  ['core', 'last_mentions_report_email_timestamp', 'number', () => null],
  ['core', 'routes_hash', 'string', () => null],
  ['core', 'next_update_check', 'number', () => null],
  ['core', 'notifications', 'array', () => '[]'],
  ['core', 'version_notifications', 'array', () => '[]'],
  ['core', 'theme_session_secret', 'string', (s) => s.hex(32)],
  ['core', 'ghost_public_key', 'string', (s) => s.ghost.publicKey],
  ['core', 'ghost_private_key', 'string', (s) => s.ghost.privateKey],
  ['core', 'members_public_key', 'string', (s) => s.members.publicKey],
  ['core', 'members_private_key', 'string', (s) => s.members.privateKey],
  ['core', 'members_email_auth_secret', 'string', (s) => s.hex(64)],
  ['core', 'members_stripe_webhook_id', 'string', () => null],
  ['core', 'members_stripe_webhook_secret', 'string', () => null],
  ['site', 'heading_font', 'string', () => ''],
  ['site', 'body_font', 'string', () => ''],
  ['site', 'codeinjection_head', 'string', () => ''],
  ['site', 'codeinjection_foot', 'string', () => ''],
  ['site', 'facebook', 'string', () => 'ghost'],
  ['site', 'twitter', 'string', () => '@ghost'],
  ['site', 'navigation', 'array', () => '[{"label":"Home","url":"/"},{"label":"About","url":"/about/"}]'],
  ['site', 'secondary_navigation', 'array', () => '[{"label":"Sign up","url":"#/portal/"}]'],
  ['site', 'meta_title', 'string', () => null],
  ['site', 'meta_description', 'string', () => null],
  ['site', 'og_image', 'string', () => null],
  ['site', 'og_title', 'string', () => null],
  ['site', 'og_description', 'string', () => null],
  ['site', 'twitter_image', 'string', () => null],
  ['site', 'twitter_title', 'string', () => null],
  ['site', 'twitter_description', 'string', () => null],
  ['theme', 'active_theme', 'string', () => 'source'],
  ['private', 'is_private', 'boolean', () => 'false'],
  ['private', 'password', 'string', () => ''],
  ['private', 'public_hash', 'string', (s) => s.hex(15)],
  ['members', 'default_content_visibility', 'string', () => 'public'],
  ['members', 'default_content_visibility_tiers', 'array', () => '[]'],
  ['members', 'members_support_address', 'string', () => 'noreply'],
  ['members', 'stripe_secret_key', 'string', () => null],
  ['members', 'stripe_publishable_key', 'string', () => null],
  ['members', 'stripe_plans', 'array', () => '[]'],
  ['members', 'stripe_connect_publishable_key', 'string', () => null],
  ['members', 'stripe_connect_secret_key', 'string', () => null],
  ['members', 'stripe_connect_livemode', 'boolean', () => null],
  ['members', 'stripe_connect_display_name', 'string', () => null],
  ['members', 'stripe_connect_account_id', 'string', () => null],
  ['members', 'members_monthly_price_id', 'string', () => null],
  ['members', 'members_yearly_price_id', 'string', () => null],
  ['members', 'members_track_sources', 'boolean', () => 'true'],
  ['members', 'blocked_email_domains', 'array', () => '[]'],
  ['portal', 'portal_name', 'boolean', () => 'true'],
  ['portal', 'portal_button', 'boolean', () => 'false'],
  ['portal', 'portal_plans', 'array', () => '["free"]'],
  ['portal', 'portal_default_plan', 'string', () => 'yearly'],
  ['portal', 'portal_products', 'array', () => '[]'],
  ['portal', 'portal_button_style', 'string', () => 'icon-and-text'],
  ['portal', 'portal_button_icon', 'string', () => null],
  ['portal', 'portal_button_signup_text', 'string', () => 'Subscribe'],
  ['portal', 'portal_signup_terms_html', 'string', () => null],
  ['portal', 'portal_signup_checkbox_required', 'boolean', () => 'false'],
  ['email', 'mailgun_domain', 'string', () => null],
  ['email', 'mailgun_api_key', 'string', () => null],
  ['email', 'mailgun_base_url', 'string', () => null],
  ['email', 'email_track_opens', 'boolean', () => 'true'],
  ['email', 'email_track_clicks', 'boolean', () => 'true'],
  ['email', 'email_verification_required', 'boolean', () => 'false'],
  ['amp', 'amp', 'boolean', () => 'false'],
  ['amp', 'amp_gtag_id', 'string', () => null],
  ['firstpromoter', 'firstpromoter', 'boolean', () => 'false'],
  ['firstpromoter', 'firstpromoter_id', 'string', () => null],
  ['labs', 'labs', 'object', () => '{}'],
  ['slack', 'slack_url', 'string', () => ''],
  ['slack', 'slack_username', 'string', () => 'Ghost'],
  ['unsplash', 'unsplash', 'boolean', () => 'true'],
  ['views', 'shared_views', 'array', () => '[]'],
  ['editor', 'editor_default_email_recipients', 'string', () => 'visibility'],
  ['editor', 'editor_default_email_recipients_filter', 'string', () => 'all'],
  ['announcement', 'announcement_content', 'string', () => null],
  ['announcement', 'announcement_visibility', 'array', () => '[]'],
  ['announcement', 'announcement_background', 'string', () => 'dark'],
  ['comments', 'comments_enabled', 'string', () => 'off'],
  ['analytics', 'outbound_link_tagging', 'boolean', () => 'true'],
  ['analytics', 'web_analytics', 'boolean', () => 'true'],
  ['pintura', 'pintura', 'boolean', () => 'true'],
  ['pintura', 'pintura_js_url', 'string', () => null],
  ['pintura', 'pintura_css_url', 'string', () => null],
  ['donations', 'donations_currency', 'string', () => 'USD'],
  ['donations', 'donations_suggested_amount', 'number', () => '500'],
  ['recommendations', 'recommendations_enabled', 'boolean', () => 'false'],
  ['social_web', 'social_web', 'boolean', () => 'true'],
  ['explore', 'explore_ping', 'boolean', () => 'true'],
  ['explore', 'explore_ping_growth', 'boolean', () => 'false'],
];

/** Ghost's 1024-bit RSA key pairs (the `keypair` package's PKCS#1 PEM), for member and site tokens. */
function rsaKeyPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 1024,
    publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
}

export const allSettings: MigrationFactory = () => ({
  async up(db) {
    await db.updateTable('settings').set({ value: '' }).where('key', 'in', ['logo', 'icon']).where('value', 'is', null).execute();
    const existing = new Set((await db.selectFrom('settings').select('key').execute()).map((row) => row.key as string));
    const missing = ROWS.filter(([, key]) => !existing.has(key));
    if (missing.length === 0) return;
    const generated: Generated = {
      hex: (bytes) => randomBytes(bytes).toString('hex'),
      ghost: rsaKeyPair(),
      members: rsaKeyPair(),
    };
    const created_at = new Date();
    await db
      .insertInto('settings')
      .values(missing.map(([group, key, type, value]) => ({ id: objectId(), group, key, type, value: value(generated), created_at, updated_at: created_at })))
      .execute();
  },
  async down(db) {
    await db
      .deleteFrom('settings')
      .where(
        'key',
        'in',
        ROWS.map(([, key]) => key),
      )
      .execute();
  },
});
