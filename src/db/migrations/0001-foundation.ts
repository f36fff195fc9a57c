import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../engine.js';
import type { MigrationFactory } from './factory.js';
import { objectId } from '../ids.js';

/*
 * The seed rows below are frozen copies, not imports of application code (`auth/roles.ts`): a migration must
 * insert the same rows forever, whatever later code believes. Changing them later takes a new migration.
 */

/** Ghost's role fixtures, in the order Ghost seeds them. */
const ROLE_FIXTURES = [
  { name: 'Administrator', description: 'Administrators' },
  { name: 'Editor', description: 'Editors' },
  { name: 'Author', description: 'Authors' },
  { name: 'Contributor', description: 'Contributors' },
  { name: 'Owner', description: 'Blog Owner' },
  { name: 'Admin Integration', description: 'External Apps' },
  { name: 'Ghost Explore Integration', description: 'Internal Integration for the Ghost Explore directory' },
  { name: 'Self-Serve Migration Integration', description: 'Internal Integration for the Self-Serve migration tool' },
  { name: 'DB Backup Integration', description: 'Internal DB Backup Client' },
  { name: 'Scheduler Integration', description: 'Internal Scheduler Client' },
  { name: 'Super Editor', description: 'Super Editors' },
];

/** Ghost's fixture id of the owner user. */
const OWNER_USER_ID = '1';

/** Settings the foundation needs; the settings issue owns the full list. */
const DEFAULT_SETTINGS: [group: string, key: string, type: string, value: () => string | null][] = [
  ['core', 'db_hash', 'string', () => randomUUID()],
  ['core', 'admin_session_secret', 'string', () => randomBytes(32).toString('hex')],
  ['core', 'site_uuid', 'string', () => randomUUID()],
  ['site', 'title', 'string', () => 'Ghost'],
  ['site', 'description', 'string', () => 'Thoughts, stories and ideas.'],
  ['site', 'logo', 'string', () => null],
  ['site', 'icon', 'string', () => null],
  ['site', 'cover_image', 'string', () => 'https://static.ghost.org/v5.0.0/images/publication-cover.jpg'],
  ['site', 'accent_color', 'string', () => '#FF1A75'],
  ['site', 'locale', 'string', () => 'en'],
  ['site', 'timezone', 'string', () => 'Etc/UTC'],
  ['members', 'members_signup_access', 'string', () => 'all'],
  ['members', 'require_email_mfa', 'boolean', () => 'false'],
];

export const foundation: MigrationFactory = (t) => ({
  async up(db) {
    await createTables(db, t);
    await seed(db);
  },
  async down(db) {
    for (const table of ['api_keys', 'integrations', 'sessions', 'roles_users', 'users', 'roles', 'settings']) {
      await db.schema.dropTable(table).execute();
    }
  },
});

async function createTables(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('settings')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('group', 'varchar(50)', (c) => c.notNull().defaultTo('core'))
    .addColumn('key', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('value', t.longText)
    .addColumn('type', 'varchar(50)', (c) => c.notNull())
    .addColumn('flags', 'varchar(50)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(2000)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .execute();

  let users = db.schema
    .createTable('users')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(60)', (c) => c.notNull())
    .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('profile_image', 'varchar(2000)')
    .addColumn('cover_image', 'varchar(2000)')
    .addColumn('bio', t.text)
    .addColumn('website', 'varchar(2000)')
    .addColumn('location', t.text);
  for (const social of ['facebook', 'twitter']) users = users.addColumn(social, 'varchar(2000)');
  for (const social of ['threads', 'bluesky', 'mastodon', 'tiktok', 'youtube', 'instagram', 'linkedin']) users = users.addColumn(social, 'varchar(191)');
  users = users
    .addColumn('accessibility', t.text)
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('active'))
    .addColumn('locale', 'varchar(6)')
    .addColumn('visibility', 'varchar(50)', (c) => c.notNull().defaultTo('public'))
    .addColumn('meta_title', 'varchar(2000)')
    .addColumn('meta_description', 'varchar(2000)')
    .addColumn('tour', t.text)
    .addColumn('last_seen', t.timestamp);
  for (const [flag, on] of [
    ['comment_notifications', true],
    ['free_member_signup_notification', true],
    ['paid_subscription_started_notification', true],
    ['paid_subscription_canceled_notification', false],
    ['mention_notifications', true],
    ['recommendation_notifications', true],
    ['milestone_notifications', true],
    ['donation_notifications', true],
  ] as const)
    users = users.addColumn(flag, t.boolean, (c) => c.notNull().defaultTo(on));
  await users
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();

  await db.schema
    .createTable('roles_users')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('role_id', 'varchar(24)', (c) => c.notNull().references('roles.id'))
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('roles_users_user_id_index').on('roles_users').column('user_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('session_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(24)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('origin', 'varchar(2000)')
    .addColumn('user_agent', 'varchar(2000)')
    .addColumn('ip', 'varchar(100)')
    .addColumn('verified', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(50)', (c) => c.notNull().defaultTo('custom'))
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('icon_image', 'varchar(2000)')
    .addColumn('description', 'varchar(2000)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(50)', (c) => c.notNull())
    .addColumn('secret', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('role_id', 'varchar(24)', (c) => c.references('roles.id'))
    .addColumn('integration_id', 'varchar(24)', (c) => c.references('integrations.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(24)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('last_seen_at', t.timestamp)
    .addColumn('last_seen_version', 'varchar(50)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();
  await db.schema.createIndex('api_keys_integration_id_index').on('api_keys').column('integration_id').execute();
  await db.schema.createIndex('api_keys_user_id_index').on('api_keys').column('user_id').execute();
}

async function seed(db: Kysely<any>) {
  const created_at = new Date(Math.floor(Date.now() / 1000) * 1000);
  const stamp = { created_at, updated_at: created_at };
  const roleIds = new Map<string, string>();
  for (const role of ROLE_FIXTURES) {
    const id = objectId();
    roleIds.set(role.name, id);
    await db
      .insertInto('roles')
      .values({ id, ...role, ...stamp })
      .execute();
  }
  await db
    .insertInto('settings')
    .values(DEFAULT_SETTINGS.map(([group, key, type, value]) => ({ id: objectId(), group, key, type, value: value(), ...stamp })))
    .execute();

  // The owner exists before setup, inactive and without a usable password, as in Ghost (id "1").
  await db
    .insertInto('users')
    .values({
      id: OWNER_USER_ID,
      name: 'Ghost',
      slug: 'ghost',
      email: 'ghost@example.com',
      status: 'inactive',
      password: '!',
      created_by: OWNER_USER_ID,
      ...stamp,
    })
    .execute();
  await db
    .insertInto('roles_users')
    .values({ id: objectId(), role_id: roleIds.get('Owner'), user_id: OWNER_USER_ID })
    .execute();

  const zapierId = objectId();
  await db
    .insertInto('integrations')
    .values({
      id: zapierId,
      type: 'builtin',
      name: 'Zapier',
      slug: 'zapier',
      description: 'Built-in Zapier integration',
      created_by: OWNER_USER_ID,
      ...stamp,
    })
    .execute();
  await db
    .insertInto('api_keys')
    .values({
      id: objectId(),
      type: 'admin',
      secret: randomBytes(32).toString('hex'),
      role_id: roleIds.get('Admin Integration'),
      integration_id: zapierId,
      created_by: OWNER_USER_ID,
      ...stamp,
    })
    .execute();
}
