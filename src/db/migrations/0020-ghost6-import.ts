import type { MigrationFactory } from './factory.js';
import { objectId } from '../ids.js';

/*
 * What a Ghost 6 export carries that Ghost 5.130.6 did not have a place for: the settings Ghost 6 added (a row
 * each, with Ghost 6's default, as 0007 did for Ghost 5's), and the offer's `redemption_type` (Ghost 6's
 * `signup` or `retention` offers; every offer made before is a sign-up offer). A frozen copy of the rows, not
 * an import of `settings/keys.ts`: this migration must insert the same rows forever. Named 0020: 0019 is the
 * Members API's.
 */
const ROWS: [group: string, key: string, type: string, value: string | null][] = [
  ['site', 'threads', 'string', null],
  ['site', 'bluesky', 'string', null],
  ['site', 'mastodon', 'string', null],
  ['site', 'tiktok', 'string', null],
  ['site', 'youtube', 'string', null],
  ['site', 'instagram', 'string', null],
  ['site', 'linkedin', 'string', null],
  ['site', 'llms_enabled', 'boolean', 'true'],
  ['site', 'machine_payments_enabled', 'boolean', 'false'],
  ['site', 'machine_payments_currency', 'string', null],
  ['site', 'machine_payments_amount', 'number', '100'],
  ['site', 'machine_payments_stripe_profile_id', 'string', null],
  ['portal', 'portal_signup_gift_promotion', 'boolean', 'true'],
  ['portal', 'portal_account_gift_promotion', 'boolean', 'true'],
  ['transistor', 'transistor', 'boolean', 'false'],
  ['transistor', 'transistor_portal_enabled', 'boolean', 'true'],
  ['transistor', 'transistor_portal_heading', 'string', 'Podcasts'],
  ['transistor', 'transistor_portal_description', 'string', 'Access your private podcast feed'],
  ['transistor', 'transistor_portal_button_text', 'string', 'View'],
  ['transistor', 'transistor_portal_url_template', 'string', 'https://partner.transistor.fm/ghost/{memberUuid}'],
];

export const ghost6Import: MigrationFactory = () => ({
  async up(db) {
    const existing = new Set((await db.selectFrom('settings').select('key').execute()).map((row) => row.key as string));
    const missing = ROWS.filter(([, key]) => !existing.has(key));
    const created_at = new Date();
    if (missing.length > 0) {
      await db
        .insertInto('settings')
        .values(missing.map(([group, key, type, value]) => ({ id: objectId(), group, key, type, value, created_at, updated_at: created_at })))
        .execute();
    }
    await db.schema
      .alterTable('offers')
      .addColumn('redemption_type', 'varchar(50)', (c) => c.notNull().defaultTo('signup'))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('offers').dropColumn('redemption_type').execute();
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
