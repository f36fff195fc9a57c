import { describe, expect, it } from 'vitest';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ADMIN } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';
import { ctxBaseFromConfig } from '../../ctx-base.js';
import { JobRunner } from '../../jobs/runner.js';
import { enqueueJob } from '../../jobs/jobs.js';
import { pruneHistory } from '../../jobs/prune.js';
import { MEMBERS_IMPORT_JOB, membersImportJob } from './members.import-job.js';

/** Fails the n-th multi-row insert into `members` once armed: a database error half-way through a file. */
class FailingMembersInsert implements KyselyPlugin {
  failAt: number | null = null;
  #seen = 0;
  arm(at: number) {
    this.failAt = at;
    this.#seen = 0;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (this.failAt !== null && node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'members' && ++this.#seen === this.failAt) {
      this.failAt = null;
      throw new Error('injected failure half-way');
    }
    return node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const failing = new FailingMembersInsert();
// Files above 100 rows go to the runner, which looks for work every 50 ms.
const t = useTestSite({ caller: 'integration', jobs: true, plugins: [failing], settings: { MEMBERS_IMPORT_INLINE_ROWS: '100', JOBS_POLL_MS: '50' } });

/** What the app's ctx shares (the same storage under the test site's CONTENT_DIR). */
const base = () => ctxBaseFromConfig(t.config, t.connection, { info: () => undefined, error: () => undefined });

const importCsv = (data: string) => t.admin.upload('/members/upload/', { membersfile: { name: 'members.csv', type: 'text/csv', data } });

interface Job {
  id: string;
  status: string;
  progress: { stage: string; rows: number; checked: number } | null;
  result: {
    originalImportSize: number;
    stats: { imported: number; invalid: { email: string; error: string }[] };
    import_label: { name: string } | null;
  } | null;
  error: string | null;
}

/** Reads the job at the 202's Location until it has ended. */
async function finished(location: string): Promise<{ job: Job; seen: string[] }> {
  const path = new URL(location).pathname.slice(ADMIN.length);
  const seen: string[] = [];
  for (let i = 0; i < 1200; i++) {
    const res = await t.admin.get(path);
    expect(res.statusCode).toBe(200);
    const job = res.json().jobs[0] as Job;
    seen.push(job.status);
    if (job.status === 'done' || job.status === 'failed') return { job, seen };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
}

const countWhere = async (prefix: string) =>
  Number(
    (
      await t.db
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', 'like', `${prefix}%`)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /members/upload/ (large files, imported by a background job)', () => {
  it('answers 202 with the size and a Location whose job reports progress and then Ghost’s import result', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => `bg-${i}@example.com,Member ${i}`);
    const res = await importCsv(['email,name', ...rows, 'bg-bad,Bad'].join('\n'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ meta: { originalImportSize: 251 } });
    expect(res.headers.location).toMatch(/\/ghost\/api\/admin\/members\/upload\/[a-f0-9]{24}\/$/);
    const { job, seen } = await finished(res.headers.location as string);
    expect(seen.every((status) => ['pending', 'running', 'done'].includes(status))).toBe(true);
    expect(job.status).toBe('done');
    expect(job.progress).toEqual({ stage: 'writing', rows: 251, checked: 251 });
    expect(job.result!.originalImportSize).toBe(251);
    expect(job.result!.stats.imported).toBe(250);
    expect(job.result!.stats.invalid.map((row) => [row.email, row.error])).toEqual([['bg-bad', 'Invalid Email']]);
    expect(job.result!.import_label!.name).toMatch(/^Import /);
    expect(await countWhere('bg-')).toBe(250);
    // The prepared file is gone once the job has ended.
    expect(await base().storage.list('data/imports')).toEqual([]);
  });

  it('imports 10,000 rows with 1 % bad ones: every good row present exactly once, every bad row reported', async () => {
    const lines = ['email,name,labels'];
    const bad = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      if (i % 100 === 50) {
        const email = `big-bad-${i}`;
        bad.add(email);
        lines.push(`${email},Bad ${i},`);
      } else lines.push(`big-${i}@example.com,Member ${i},"big,batch"`);
    }
    const res = await importCsv(lines.join('\n'));
    expect(res.statusCode).toBe(202);
    const { job } = await finished(res.headers.location as string);
    expect(job.status).toBe('done');
    expect(job.result!.stats.imported).toBe(9_900);
    expect(new Set(job.result!.stats.invalid.map((row) => row.email))).toEqual(bad);
    expect(job.result!.stats.invalid.every((row) => row.error === 'Invalid Email')).toBe(true);
    const emails = await t.db.selectFrom('members').select('email').where('email', 'like', 'big-%').execute();
    expect(emails).toHaveLength(9_900);
    expect(new Set(emails.map((row) => row.email)).size).toBe(9_900);
    const labelled = await t.db
      .selectFrom('members_labels')
      .innerJoin('labels', 'labels.id', 'members_labels.label_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('labels.slug', '=', 'batch')
      .executeTakeFirstOrThrow();
    expect(Number(labelled.n)).toBe(9_900);
  }, 120_000);

  it('leaves no member of the file when the database fails half-way, and says why', async () => {
    const before = await t.db.selectFrom('labels').select('name').execute();
    failing.arm(3);
    const rows = Array.from({ length: 2_000 }, (_, i) => `half-${i}@example.com`);
    const res = await importCsv(['email', ...rows].join('\n'));
    expect(res.statusCode).toBe(202);
    const { job } = await finished(res.headers.location as string);
    expect(failing.failAt).toBeNull();
    expect(job.status).toBe('failed');
    expect(job.error).toBe('injected failure half-way');
    expect(job.result).toBeNull();
    expect(await countWhere('half-')).toBe(0);
    // Not even the import's label was left behind.
    expect(await t.db.selectFrom('labels').select('name').execute()).toEqual(before);
  }, 60_000);

  it('takes over a job whose instance died once its lease runs out, and imports it once', async () => {
    const res = await importCsv(['email', ...Array.from({ length: 150 }, (_, i) => `orphan-${i}@example.com`)].join('\n'));
    expect(res.statusCode).toBe(202);
    const id = /upload\/([a-f0-9]{24})\/$/.exec(res.headers.location as string)![1]!;
    const { job } = await finished(res.headers.location as string);
    expect(job.status).toBe('done');
    // As if an instance had claimed it again and died before finishing: pending, leased by nobody alive.
    expect((await t.admin.del(`/members/?filter=${encodeURIComponent("email:~^'orphan-'")}`)).json().meta.stats.successful).toBe(150);
    // The file was removed when the job ended; a dead instance's job still has it (put back before the row is due).
    const shared = base();
    const stored = (await t.db.selectFrom('jobs').select('payload').where('id', '=', id).executeTakeFirstOrThrow()).payload;
    const { file } = JSON.parse(stored) as { file: string };
    await shared.storage.write(file, ['email', ...Array.from({ length: 150 }, (_, i) => `orphan-${i}@example.com`)].join('\r\n'), { private: true });
    await t.db
      .updateTable('jobs')
      .set({ status: 'pending', lease_owner: 'dead-instance', lease_expires_at: new Date(Date.now() - 1000), attempts: 1, result: null })
      .where('id', '=', id)
      .execute();
    // A second instance beside the app's runner: either may take it over; exactly one imports it.
    const other = new JobRunner({
      db: t.db,
      engine: t.connection.engine,
      clock: t.clock,
      config: { ...t.config.jobs, pollMs: 50 },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      jobs: { [MEMBERS_IMPORT_JOB]: membersImportJob(shared) },
    });
    other.start();
    try {
      const again = await finished(res.headers.location as string);
      expect(again.job.error).toBeNull();
      expect(again.job.status).toBe('done');
      expect(again.job.result!.stats.imported).toBe(150);
    } finally {
      await other.stop();
    }
    expect(await countWhere('orphan-')).toBe(150);
    const row = await t.db.selectFrom('jobs').select(['attempts', 'lease_owner']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
    expect(row.lease_owner).toBeNull();
  }, 60_000);

  it('prunes ended jobs with the delivery history, never a pending one', async () => {
    // A kind no runner here knows: it stays pending.
    const pending = await enqueueJob(t.db, { kind: 'elsewhere', payload: {}, createdBy: null, now: new Date() });
    const ended = await t.db.selectFrom('jobs').select('id').where('status', 'in', ['done', 'failed']).execute();
    expect(ended.length).toBeGreaterThan(0);
    const pruned = await pruneHistory(t.db, new Date(Date.now() + 60_000));
    expect(pruned.jobs).toBe(ended.length);
    expect((await t.db.selectFrom('jobs').select('id').execute()).map((row) => row.id)).toEqual([pending]);
  });

  it('answers 404 for a job that is not an import', async () => {
    const res = await t.admin.get('/members/upload/6b01a0b05973b53791bbe3ff/');
    expect(res.statusCode).toBe(404);
  });
});
