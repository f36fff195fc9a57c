import type { MigrationFactory } from './factory.js';

/**
 * One value sealed with the secrets key of the last instance that started (`auth/secrets-key-check.ts`): an
 * instance started with another key finds that it cannot open it and says so, instead of failing the
 * authenticator-app codes another instance sealed, one request in N, without a word.
 */
export const secretsKeyCheck: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('secrets_key_check')
      .addColumn('name', 'varchar(50)', (c) => c.primaryKey())
      .addColumn('sealed', 'varchar(255)', (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('secrets_key_check').execute();
  },
});
