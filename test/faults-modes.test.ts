import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { parseConfig } from '../src/config.js';
import { resolveSecretsKey } from '../src/auth/secret-box.js';
import { localDiskStorage } from '../src/storage/local-disk.js';

/** Files under CONTENT_DIR that hold secrets or the database are this user's only, whatever the umask. */
const mode = (file: string) => statSync(file).mode & 0o777;

describe('file modes', () => {
  it('makes the SQLite database, its WAL, the key file, private imports and their folders readable by this user only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-modes-'));
    const umask = process.umask(0o022);
    try {
      const config = parseConfig({ CONTENT_DIR: path.join(dir, 'content') });
      const connection = connect(config.databaseUrl);
      await sql`create table t (a integer)`.execute(connection.db);
      await sql`insert into t values (1)`.execute(connection.db);
      const file = config.databaseUrl.slice('sqlite:'.length);
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}-shm`)).toBe(0o600);
      await connection.close();
      const key = resolveSecretsKey(config);
      expect(mode(key.file!)).toBe(0o600);
      // The content folder itself stays as usual: its images are public.
      expect(mode(config.contentDir)).toBe(0o755);

      const fresh = parseConfig({ CONTENT_DIR: path.join(dir, 'other'), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      expect(mode(path.dirname(resolveSecretsKey(fresh).file!))).toBe(0o700);
      const storage = localDiskStorage(fresh.contentDir, `${fresh.siteUrl}content/`);
      await storage.write('data/imports/members-1.csv', 'email\na@b.c\n', { private: true });
      expect(mode(path.join(fresh.contentDir, 'data', 'imports'))).toBe(0o700);
      expect(mode(path.join(fresh.contentDir, 'data', 'imports', 'members-1.csv'))).toBe(0o600);
    } finally {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
