import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../engine.js';
import type { MigrationFactory } from './factory.js';
import { objectId } from '../ids.js';
import { PERMISSION_FIXTURES } from './0003-staff.permissions.js';

/**
 * Staff: invitations, login-protection counters, Ghost's permission rows (read by `roles.permissions`),
 * authenticator apps with recovery codes, and which user a session's device was verified for.
 */
export const staff: MigrationFactory = (t) => ({
  async up(db) {
    await createInvites(db, t);
    await createBrute(db);
    await createPermissions(db, t);
    await createAuthenticators(db, t);
    await db.schema.alterTable('sessions').addColumn('verified_user_id', 'varchar(24)').execute();
  },
  async down(db) {
    await db.schema.alterTable('sessions').dropColumn('verified_user_id').execute();
    for (const table of ['staff_recovery_codes', 'staff_authenticators', 'permissions', 'brute', 'invites']) {
      await db.schema.dropTable(table).execute();
    }
  },
});

async function createInvites(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('invites')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('role_id', 'varchar(24)', (c) => c.notNull().references('roles.id'))
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();
}

async function createBrute(db: Kysely<any>) {
  await db.schema
    .createTable('brute')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_request', 'bigint', (c) => c.notNull())
    .addColumn('last_request', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brute_expires_index').on('brute').column('expires').execute();
}

async function createPermissions(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('permissions')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('object_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('action_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('object_id', 'varchar(24)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .execute();
  const created_at = new Date(Math.floor(Date.now() / 1000) * 1000);
  await db
    .insertInto('permissions')
    .values(
      PERMISSION_FIXTURES.map(([object_type, action_type, name]) => ({
        id: objectId(),
        name,
        object_type,
        action_type,
        object_id: null,
        created_at,
        updated_at: created_at,
      })),
    )
    .execute();
}

async function createAuthenticators(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('staff_authenticators')
    .addColumn('user_id', 'varchar(24)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_recovery_codes_user_id_index').on('staff_recovery_codes').column('user_id').execute();
}
