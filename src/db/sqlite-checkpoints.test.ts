import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.js';
import { CHECKPOINT_AFTER_MS } from './sqlite-checkpoints.js';

const MB = 1024 * 1024;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function database() {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-checkpoints-'));
  dirs.push(dir);
  const file = path.join(dir, 'quire.db');
  return { file, ...connect(`sqlite:${file}`) };
}

const sizeOf = (file: string) => statSync(file).size;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean, ms = CHECKPOINT_AFTER_MS * 10): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await pause(20)) if (check()) return true;
  return check();
}

describe('SQLite checkpoints', () => {
  it('leave a large commit in the write-ahead log and copy it into the database file a moment later', async () => {
    const { db, file, close } = database();
    try {
      await sql`CREATE TABLE big (body TEXT)`.execute(db);
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO big (body) VALUES (${'x'.repeat(8 * MB)})`.execute(trx);
      });
      // SQLite's own checkpoint would have run inside that commit (the log passed 1,000 pages).
      expect(sizeOf(file)).toBeLessThan(MB);
      expect(sizeOf(`${file}-wal`)).toBeGreaterThan(8 * MB);
      expect(await eventually(() => sizeOf(file) > 8 * MB)).toBe(true);
      const [row] = (await sql<{ n: number }>`SELECT length(body) AS n FROM big`.execute(db)).rows;
      expect(row!.n).toBe(8 * MB);
    } finally {
      await close();
    }
  });

  it('wait for a transaction that is open when they are due, and run once it has committed', async () => {
    const { db, file, close } = database();
    try {
      await sql`CREATE TABLE big (body TEXT)`.execute(db);
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO big (body) VALUES (${'y'.repeat(8 * MB)})`.execute(trx);
        await pause(CHECKPOINT_AFTER_MS * 2);
        await sql`INSERT INTO big (body) VALUES ('after the pause')`.execute(trx);
      });
      expect(await eventually(() => sizeOf(file) > 8 * MB)).toBe(true);
      const rows = (await sql<{ n: number }>`SELECT length(body) AS n FROM big ORDER BY n`.execute(db)).rows;
      expect(rows.map((row) => row.n)).toEqual([15, 8 * MB]);
    } finally {
      await close();
    }
  });

  it('copy what a connection wrote when it closes while another stays open (a command beside a running server)', async () => {
    const server = database();
    const command = connect(`sqlite:${server.file}`);
    try {
      await sql`CREATE TABLE big (body TEXT)`.execute(server.db);
      await sql`INSERT INTO big (body) VALUES (${'z'.repeat(8 * MB)})`.execute(command.db);
      expect(sizeOf(server.file)).toBeLessThan(MB);
      await command.close();
      expect(sizeOf(server.file)).toBeGreaterThan(8 * MB);
    } finally {
      await server.close();
    }
  });
});
