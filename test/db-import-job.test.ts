import { describe, expect, it } from 'vitest';
import { ADMIN, expectGhostError } from './support.js';
import { useTestSite } from './test-site.js';
import { image, zipOf } from './uploads.js';
import { PEER_EXPORT, PEER_EXPORT_MEMBERS, dataOf, ghost6Archive, importJson, snapshot, type Row } from './db-support.js';
import { ctxBaseFromConfig } from '../src/ctx-base.js';
import { LostLeaseError } from '../src/jobs/jobs.js';
import { dbImportJob } from '../src/resources/db/db.import-job.js';

// Files above 200 bytes go to the runner, which looks for work every 50 ms.
const t = useTestSite({ jobs: true, settings: { DB_IMPORT_INLINE_BYTES: '200', JOBS_POLL_MS: '50' } });

/** What the app's ctx shares (the same storage under the test site's CONTENT_DIR). */
const base = () => ctxBaseFromConfig(t.config, t.connection, { info: () => undefined, error: () => undefined });
const storage = () => base().storage;

interface Job {
  id: string;
  kind: string;
  status: string;
  progress: { stage: string } | null;
  result: { problems: { message: string; help: string; context: string }[]; counts: Record<string, number> } | null;
  error: string | null;
  finished_at: string | null;
}

const LOCATION = /^http:\/\/[^/]+\/ghost\/api\/admin\/db\/import\/([a-f0-9]{24})\/$/;

/** The background answer: Ghost's `200 {"db":[],"problems":[]}`, with the job's address in `Location`. */
function queued(res: { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown }): string {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ db: [], problems: [] });
  expect(res.headers['x-cache-invalidate']).toBe('/*');
  expect(res.headers.location).toMatch(LOCATION);
  return res.headers.location as string;
}

/** Reads the job at `location` until it has ended. */
async function finished(location: string): Promise<{ job: Job; seen: string[] }> {
  const path = new URL(location).pathname.slice(ADMIN.length);
  const seen: string[] = [];
  for (let i = 0; i < 1200; i++) {
    const res = await t.admin.get(path);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json().jobs[0] as Job;
    seen.push(job.status);
    if (job.status === 'done' || job.status === 'failed') return { job, seen };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
}

const siteChangedEvents = async () => (await t.db.selectFrom('outbox').select('id').where('event', '=', 'site.changed').execute()).map((row) => row.id).sort();

describe('POST /db/ above DB_IMPORT_INLINE_BYTES (imported by a background job)', () => {
  it('imports a Ghost 6 archive zip: members from members.csv, the theme installed and active, the rest named', async () => {
    const res = await t.admin.upload('/db/', { importfile: { name: 'site-export.zip', type: 'application/zip', data: await ghost6Archive() } });
    const { job } = await finished(queued(res));
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.result!.counts.members).toBe(10);
    const named = job.result!.problems.map((p) => p.message);
    expect(named).toEqual(expect.arrayContaining([expect.stringMatching(/^Not imported: archive entry "post-analytics\.csv" \(1\)\. /)]));
    // The archive's routes.yaml is in effect, as its upload would put it.
    expect(named.some((message) => message.includes('routes.yaml'))).toBe(false);
    expect((await t.admin.get('/settings/routes/yaml/')).body).toBe('routes:\ncollections:\n  /:\n    permalink: /{slug}/\n');
    const themes = (await t.admin.get('/themes/')).json().themes as Row[];
    expect(themes.find((theme) => theme.name === 'fieldtheme')).toMatchObject({ active: true });
    expect(((await t.admin.get('/members/?limit=all')).json().members as Row[]).filter((m) => String(m.email).startsWith('member'))).toHaveLength(10);
    // The upload waits in private storage only while the job runs.
    expect(await storage().list('data/imports')).toEqual([]);
  });

  it('answers Ghost’s empty 200 at once; the job ends done with the report, and the posts and users read back', async () => {
    const eventsBefore = await siteChangedEvents();
    const location = queued(await importJson(t, PEER_EXPORT));
    const { job, seen } = await finished(location);
    expect(seen.every((status) => ['pending', 'running', 'done'].includes(status))).toBe(true);
    expect(job).toMatchObject({ id: LOCATION.exec(location)![1], kind: 'db-import', status: 'done', error: null, progress: { stage: 'importing' } });
    expect(job.finished_at).not.toBeNull();
    // The report a small file is answered with: the Owner (same e-mail here) among the rows not imported.
    const owner = job.result!.problems.find((p) => p.help === 'User');
    expect(owner?.message).toBe('Entry was not imported and ignored. Detected duplicated entry.');
    expect(JSON.parse(owner!.context).email).toBe('owner@example.com');
    const peer = dataOf(PEER_EXPORT);
    expect(job.result!.counts.posts).toBe(peer.posts!.length);
    for (const post of peer.posts!) {
      const resource = post.type === 'page' ? 'pages' : 'posts';
      const [read] = (await t.admin.get(`/${resource}/?filter=uuid:${post.uuid}`)).json()[resource];
      expect(read?.title, post.slug as string).toBe(post.title);
    }
    const staff = (await t.admin.get('/users/?limit=all')).json().users.map((user: Row) => user.email);
    for (const user of peer.users!) expect(staff).toContain(user.email);
    // One site.changed, recorded when the import committed; the stored upload is gone.
    expect((await siteChangedEvents()).filter((id) => !eventsBefore.includes(id))).toHaveLength(1);
    expect(await storage().list('data/imports')).toEqual([]);
  }, 60_000);

  it('a zip keeps its images: they are stored by the job', async () => {
    const json = JSON.stringify({
      db: [
        { meta: { version: '5.130.6' }, data: { posts: [{ id: 'z1', title: 'Zipped later', slug: 'zipped-later', html: '<p>Zip</p>', status: 'published' }] } },
      ],
    });
    const zip = await zipOf([
      { name: 'export/site.json', data: json, stored: true },
      { name: 'export/content/images/2026/03/later.png', data: await image(4, 4, 'png') },
    ]);
    const res = await t.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } });
    const { job } = await finished(queued(res));
    expect(job.status, job.error ?? '').toBe('done');
    expect((await t.admin.get('/posts/slug/zipped-later/?formats=html')).json().posts[0].html).toBe('<p>Zip</p>');
    expect((await t.file('/content/images/2026/03/later.png')).statusCode).toBe(200);
    expect(await storage().list('data/imports')).toEqual([]);
  }, 60_000);

  it('a file that fails at its last row ends failed with the reason, and nothing of it is imported', async () => {
    const before = await snapshot(t);
    const file = JSON.parse(PEER_EXPORT_MEMBERS);
    const data = file.db[0].data;
    data.settings.find((s: Row) => s.key === 'description').value = 'changed by the failed import';
    data.members.push({ ...data.members[0], id: '6650bb00bb00bb00bb00bb02', email: null, uuid: '0c1b3d1e-2f4a-4b5c-8d6e-7f8091a2b3c4' });
    const { job } = await finished(queued(await importJson(t, JSON.stringify(file))));
    expect(job.status).toBe('failed');
    expect(job.result).toBeNull();
    expect(job.error).toMatch(/^Import failed: a row of "members" was refused/);
    expect(await snapshot(t)).toEqual(before);
    expect(await storage().list('data/imports')).toEqual([]);
  }, 60_000);

  it('an import whose job was taken over by another instance before it ended is rolled back, and its file kept', async () => {
    const before = await snapshot(t);
    const file = 'data/imports/db-taken-over.json';
    await storage().write(file, PEER_EXPORT, { private: true });
    // The runner's side of a job whose lease another instance holds by the time the import is about to commit.
    const job = {
      id: '6b01a0b05973b53791bbe3aa',
      kind: 'db-import',
      payload: { file },
      attempts: 1,
      held: async () => false,
      progress: async () => undefined,
      complete: async () => Promise.reject(new LostLeaseError('leased to another instance')),
    };
    await expect(dbImportJob(base())(job)).rejects.toBeInstanceOf(LostLeaseError);
    expect(await snapshot(t)).toEqual(before);
    // The instance that holds the job now reads the same file.
    expect(await storage().exists(file)).toBe(true);
    await storage().delete(file);
  }, 60_000);

  it('a file that is not JSON ends failed with the parser’s reason', async () => {
    const { job } = await finished(queued(await importJson(t, `{"db": [${'x'.repeat(300)}`)));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/JSON/);
  }, 60_000);

  it('a file up to the threshold is still imported during the request, with no Location', async () => {
    const small = JSON.stringify({ db: [{ meta: { version: '5.130.6' }, data: {} }] });
    expect(small.length).toBeLessThanOrEqual(200);
    const res = await importJson(t, small);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ db: [], problems: [] });
    expect(res.headers.location).toBeUndefined();
  });
});

describe('GET /db/import/:id/', () => {
  it('answers Ghost’s 404 for an id that is no import job, and 422 for a malformed id', async () => {
    const missing = await t.admin.get('/db/import/6b01a0b05973b53791bbe3ff/');
    expectGhostError(missing, { status: 404, type: 'NotFoundError', message: 'Import not found.' });
    const malformed = await t.admin.get('/db/import/not-an-id/');
    expectGhostError(malformed, { status: 422, type: 'ValidationError' });
  });
});
