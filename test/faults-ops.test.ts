import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { lexicalOf } from './factories.js';
import { noteWriteFailure, noteWriteSuccess } from '../src/db/write-health.js';

/** Honest operations: readiness says when the database cannot take writes. */
const t = useTestSite();
const sqlite = !process.env.TEST_DATABASE_URL || process.env.TEST_DATABASE_URL.startsWith('sqlite');

describe('readiness and writes', () => {
  it.skipIf(!sqlite)('turns 503 naming a full disk when writes fail for lack of space, and back when a write succeeds', async () => {
    // A database that may not grow by a page: what a full disk does to SQLite (SQLITE_FULL).
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.db);
    await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(t.db);
    try {
      const big = 'x'.repeat(200_000);
      const res = await t.admin.post('/posts/', {
        posts: [
          {
            title: 'Too big for the disk',
            custom_excerpt: null,
            lexical: lexicalOf(big),
          },
        ],
      });
      // The cause is the full disk (which readiness names below), not the failed ROLLBACK after it.
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(/disk|SQLITE|rollback/i);
      const ready = await t.app.inject({ url: '/_quire/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toBe('failing: cannot write (disk full)');
    } finally {
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(t.db);
    }
    expect((await t.admin.post('/tags/', { tags: [{ name: 'Space again' }] })).statusCode).toBe(201);
    expect((await t.app.inject({ url: '/_quire/ready' })).statusCode).toBe(200);
  });

  it('reports a read-only database, whatever the engine says it with', async () => {
    for (const err of [
      { code: '25006', message: 'cannot execute INSERT in a read-only transaction' },
      { code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' },
      { code: 'ER_OPTION_PREVENTS_STATEMENT', message: 'The MariaDB server is running with the --read-only option' },
    ]) {
      expect(noteWriteFailure(err)).toBe('read-only database');
      const ready = await t.app.inject({ url: '/_quire/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toBe('failing: cannot write (read-only database)');
      noteWriteSuccess();
    }
    // Other failures (a constraint, a timeout) say nothing about the database taking writes.
    expect(noteWriteFailure({ code: '23505', message: 'duplicate key' })).toBeNull();
    expect((await t.app.inject({ url: '/_quire/ready' })).statusCode).toBe(200);
  });
});
