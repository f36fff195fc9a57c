import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { ColumnTypes } from '../engine.js';
import type { MigrationFactory } from './factory.js';
import { objectId } from '../ids.js';

/*
 * Members and what they are grouped by: labels, tiers (Ghost's `products` table) with their benefits,
 * newsletters, offers, and the links between members and each. Columns follow Ghost 5.130.6's schema so
 * an imported Ghost database maps one to one.
 *
 * The seed rows are frozen copies of Ghost's fixtures: the free tier, one paid tier and one newsletter.
 * Setup renames the paid tier and the newsletter after the site; a site set up before this migration gets
 * them named after its title at once, as its setup would have done.
 */

const FREE_TIER = { name: 'Free', slug: 'free', type: 'free', active: true, visibility: 'public' } as const;
const DEFAULT_TIER = {
  name: 'Default Product',
  slug: 'default-product',
  type: 'paid',
  active: true,
  visibility: 'public',
  currency: 'usd',
  monthly_price: 500,
  yearly_price: 5000,
} as const;
const DEFAULT_NEWSLETTER = { name: 'Default Newsletter', slug: 'default-newsletter', show_header_name: false } as const;

const TABLES = [
  'members_newsletters',
  'members_products',
  'members_labels',
  'members',
  'offers',
  'newsletters',
  'products_benefits',
  'benefits',
  'products',
  'labels',
] as const;

export const members: MigrationFactory = (t) => ({
  async up(db) {
    await createLabels(db, t);
    await createTiers(db, t);
    await createNewsletters(db, t);
    await createOffers(db, t);
    await createMembers(db, t);
    await seed(db);
  },
  async down(db) {
    for (const table of TABLES) await db.schema.dropTable(table).execute();
  },
});

async function createLabels(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('labels')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();
}

async function createTiers(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('products')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('active', t.boolean, (c) => c.notNull().defaultTo(true))
    .addColumn('welcome_page_url', 'varchar(2000)')
    .addColumn('visibility', 'varchar(50)', (c) => c.notNull().defaultTo('none'))
    .addColumn('trial_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'varchar(191)')
    .addColumn('type', 'varchar(50)', (c) => c.notNull().defaultTo('paid'))
    .addColumn('currency', 'varchar(50)')
    .addColumn('monthly_price', 'bigint')
    .addColumn('yearly_price', 'bigint')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('monthly_price_id', 'varchar(24)')
    .addColumn('yearly_price_id', 'varchar(24)')
    .execute();
  await db.schema
    .createTable('benefits')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .execute();
  await db.schema
    .createTable('products_benefits')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('product_id', 'varchar(24)', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('benefit_id', 'varchar(24)', (c) => c.notNull().references('benefits.id').onDelete('cascade'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('products_benefits_product_id_index').on('products_benefits').column('product_id').execute();
}

async function createNewsletters(db: Kysely<any>, t: ColumnTypes) {
  const flag = (name: string, value: boolean) => (table: any) => table.addColumn(name, t.boolean, (c: any) => c.notNull().defaultTo(value));
  let table = db.schema
    .createTable('newsletters')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(2000)')
    .addColumn('feedback_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('sender_name', 'varchar(191)')
    .addColumn('sender_email', 'varchar(191)')
    .addColumn('sender_reply_to', 'varchar(191)', (c) => c.notNull().defaultTo('newsletter'))
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('active'))
    .addColumn('visibility', 'varchar(50)', (c) => c.notNull().defaultTo('members'))
    .addColumn('subscribe_on_signup', t.boolean, (c) => c.notNull().defaultTo(true))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('header_image', 'varchar(2000)');
  table = flag('show_header_icon', true)(table);
  table = flag('show_header_title', true)(table);
  table = flag('show_excerpt', false)(table);
  table = table
    .addColumn('title_font_category', 'varchar(191)', (c) => c.notNull().defaultTo('sans_serif'))
    .addColumn('title_alignment', 'varchar(191)', (c) => c.notNull().defaultTo('center'));
  table = flag('show_feature_image', true)(table);
  table = table.addColumn('body_font_category', 'varchar(191)', (c) => c.notNull().defaultTo('sans_serif')).addColumn('footer_content', t.longText);
  for (const [name, value] of [
    ['show_badge', true],
    ['show_header_name', true],
    ['show_post_title_section', true],
    ['show_comment_cta', true],
    ['show_subscription_details', false],
    ['show_latest_posts', false],
  ] as const) {
    table = flag(name, value)(table);
  }
  await table
    .addColumn('background_color', 'varchar(50)', (c) => c.notNull().defaultTo('light'))
    .addColumn('post_title_color', 'varchar(50)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('button_corners', 'varchar(50)', (c) => c.notNull().defaultTo('rounded'))
    .addColumn('button_style', 'varchar(50)', (c) => c.notNull().defaultTo('fill'))
    .addColumn('title_font_weight', 'varchar(50)', (c) => c.notNull().defaultTo('bold'))
    .addColumn('link_style', 'varchar(50)', (c) => c.notNull().defaultTo('underline'))
    .addColumn('image_corners', 'varchar(50)', (c) => c.notNull().defaultTo('square'))
    .addColumn('header_background_color', 'varchar(50)', (c) => c.notNull().defaultTo('transparent'))
    .addColumn('section_title_color', 'varchar(50)')
    .addColumn('divider_color', 'varchar(50)')
    .addColumn('button_color', 'varchar(50)', (c) => c.defaultTo('accent'))
    .addColumn('link_color', 'varchar(50)', (c) => c.defaultTo('accent'))
    .execute();
}

async function createOffers(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('offers')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('active', t.boolean, (c) => c.notNull().defaultTo(true))
    .addColumn('name', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('code', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('product_id', 'varchar(24)', (c) => c.notNull().references('products.id'))
    .addColumn('stripe_coupon_id', 'varchar(255)', (c) => c.unique())
    .addColumn('interval', 'varchar(50)', (c) => c.notNull())
    .addColumn('currency', 'varchar(50)')
    .addColumn('discount_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('discount_amount', 'integer', (c) => c.notNull())
    .addColumn('duration', 'varchar(50)', (c) => c.notNull())
    .addColumn('duration_in_months', 'integer')
    .addColumn('portal_title', 'varchar(191)')
    .addColumn('portal_description', 'varchar(2000)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .execute();
}

async function createMembers(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('members')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.unique())
    .addColumn('transient_id', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('free'))
    .addColumn('name', 'varchar(191)')
    .addColumn('expertise', 'varchar(191)')
    .addColumn('note', 'varchar(2000)')
    .addColumn('geolocation', 'varchar(2000)')
    .addColumn('enable_comment_notifications', t.boolean, (c) => c.notNull().defaultTo(true))
    .addColumn('email_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_opened_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_open_rate', 'integer')
    .addColumn('email_disabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('last_seen_at', t.timestamp)
    .addColumn('last_commented_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();
  await db.schema.createIndex('members_email_disabled_index').on('members').column('email_disabled').execute();
  await db.schema.createIndex('members_email_open_rate_index').on('members').column('email_open_rate').execute();
  await db.schema.createIndex('members_created_at_index').on('members').column('created_at').execute();

  const link = async (table: string, column: string, target: string, extra?: (b: any) => any) => {
    let builder = db.schema
      .createTable(table)
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn(column, 'varchar(24)', (c) => c.notNull().references(`${target}.id`).onDelete('cascade'));
    if (extra) builder = extra(builder);
    await builder.execute();
    await db.schema.createIndex(`${table}_member_id_index`).on(table).column('member_id').execute();
    await db.schema.createIndex(`${table}_${column}_index`).on(table).column(column).execute();
  };
  await link('members_labels', 'label_id', 'labels', (b) => b.addColumn('sort_order', 'integer', (c: any) => c.notNull().defaultTo(0)));
  await link('members_products', 'product_id', 'products', (b) =>
    b.addColumn('sort_order', 'integer', (c: any) => c.notNull().defaultTo(0)).addColumn('expiry_at', t.timestamp),
  );
  await link('members_newsletters', 'newsletter_id', 'newsletters');
}

async function seed(db: Kysely<any>) {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  const owner = await db.selectFrom('users').select('status').where('id', '=', '1').executeTakeFirst();
  const title = await db.selectFrom('settings').select('value').where('key', '=', 'title').executeTakeFirst();
  // Already set up: name them as setup would have.
  const siteName = owner && owner.status !== 'inactive' && title?.value ? String(title.value).trim() : null;

  const base = { welcome_page_url: null, trial_days: 0, description: null, created_at: at, updated_at: at, monthly_price_id: null, yearly_price_id: null };
  await db
    .insertInto('products')
    .values([
      { id: objectId(), ...base, ...FREE_TIER, currency: null, monthly_price: null, yearly_price: null },
      { id: objectId(), ...base, ...DEFAULT_TIER, name: siteName ?? DEFAULT_TIER.name },
    ])
    .execute();
  await db
    .insertInto('newsletters')
    .values({
      id: objectId(),
      uuid: randomUUID(),
      ...DEFAULT_NEWSLETTER,
      name: siteName ?? DEFAULT_NEWSLETTER.name,
      sort_order: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
