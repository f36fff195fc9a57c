import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { objectId } from './db/ids.js';
import { clockFrom } from './clock.js';
import { secretBox } from './auth/secret-box.js';
import { localDiskStorage } from './storage/local-disk.js';
import { jobCtx, siteOf, type Ctx, type WriteCtx } from './ctx.js';
import { createTestDatabase, SITE_URL, type TestDatabase } from '../test/support.js';
import { withTestSite } from '../test/test-site.js';

const AT = new Date('2026-01-02T03:04:05.000Z');
const fixedClock = clockFrom(() => AT.getTime() + 678);

let database: TestDatabase;
let connection: Connection;
let ctx: Ctx;
const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-ctx-'));
beforeAll(async () => {
  database = await createTestDatabase();
  connection = connect(database.url, { poolSize: 2 });
  await migrateToLatest(connection);
  ctx = jobCtx({
    db: connection.db,
    engine: connection.engine,
    site: siteOf(SITE_URL),
    clock: fixedClock,
    mailer: { fromAddress: 'noreply@example.com', send: async () => undefined },
    secrets: secretBox(randomBytes(32)),
    storage: localDiskStorage(contentDir, `${SITE_URL}content/`),
  });
});
afterAll(async () => {
  await connection.close();
  await database.drop();
  rmSync(contentDir, { recursive: true, force: true });
});

const outbox = () => connection.db.selectFrom('outbox').selectAll().orderBy('id').execute();
const clearOutbox = () => connection.db.deleteFrom('outbox').execute();
/** A role row: `roles.name` is unique, which lets a test lose a race on purpose. */
const insertRole = (w: WriteCtx, name: string) =>
  w.db.insertInto('roles').values({ id: objectId(), name, description: null, created_at: w.clock.now(), updated_at: null }).execute();

describe('ctx.write and the outbox', () => {
  it('writes the events a committed write recorded into the outbox, in its transaction', async () => {
    await clearOutbox();
    const id = objectId();
    await ctx.write(async (w) => {
      await insertRole(w, 'Outbox Committed');
      w.events.record('tag.added', { tag: { current: { id } } } as never, { type: 'tag', id });
    });
    expect(await outbox()).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        event: 'tag.added',
        resource_type: 'tag',
        resource_id: id,
        payload: JSON.stringify({ tag: { current: { id } } }),
        status: 'pending',
        attempts: 0,
        available_at: AT,
        lease_owner: null,
        lease_expires_at: null,
        created_at: AT,
      },
    ]);
  });

  it('leaves no event (and no change) when the write fails', async () => {
    await clearOutbox();
    const failing = ctx.write(async (w) => {
      await insertRole(w, 'Outbox Rolled Back');
      w.events.record('tag.added', { n: 1 } as never);
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await outbox()).toEqual([]);
    expect(await connection.db.selectFrom('roles').select('id').where('name', '=', 'Outbox Rolled Back').execute()).toEqual([]);
  });

  it('records the events of the attempt that committed once, when a lost race makes it run again', async () => {
    await clearOutbox();
    let attempts = 0;
    await ctx.write(async (w) => {
      attempts++;
      w.events.record('tag.added', { attempt: attempts } as never);
      // The first attempt collides with an existing role name (a unique constraint): the write runs again.
      await insertRole(w, attempts === 1 ? 'Editor' : 'Outbox Retried');
    });
    expect(attempts).toBe(2);
    const rows = await outbox();
    expect(rows.map((row) => [row.event, JSON.parse(row.payload)])).toEqual([['tag.added', { attempt: 2 }]]);
  });

  it('joins the outer transaction when a write is opened inside a write', async () => {
    await clearOutbox();
    const failing = ctx.write(async (outer) => {
      outer.events.record('post.added', {} as never);
      await outer.write(async (inner) => inner.events.record('post.tag.attached', {} as never));
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await outbox()).toEqual([]);
    await ctx.write(async (outer) => {
      outer.events.record('post.added', {} as never);
      await outer.write(async (inner) => inner.events.record('post.tag.attached', {} as never));
    });
    expect((await outbox()).map((row) => row.event)).toEqual(['post.added', 'post.tag.attached']);
  });
});

it('stamps what a request writes with the clock the app was given', async () => {
  await withTestSite(
    async (t) => {
      const res = await t.admin.post('/tags/', { tags: [{ name: 'Clocked' }] });
      expect(res.statusCode).toBe(201);
      const [tag] = res.json().tags;
      expect(tag.created_at).toBe('2026-01-02T03:04:05.000Z');
      expect(tag.updated_at).toBe('2026-01-02T03:04:05.000Z');
    },
    { clock: fixedClock },
  );
});
