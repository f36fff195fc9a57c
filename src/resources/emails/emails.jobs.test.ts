import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestSite } from '../../../test/test-site.js';
import { first } from '../../../test/posts-support.js';
import { lexicalOf, makePost } from '../../../test/factories.js';
import { MailSink } from '../../../test/mail-support.js';
import { waitFor } from '../../../test/newsletter-support.js';
import { ctxBaseFromConfig } from '../../ctx-base.js';
import { JobRunner } from '../../jobs/runner.js';
import { MAX_JOB_ATTEMPTS, type JobHandlers } from '../../jobs/jobs.js';
import { createBulkSender } from '../../mail/bulk-transport.js';
import { NEWSLETTER_BATCH_JOB, NEWSLETTER_PREPARE_JOB, newsletterPrepareJob } from './emails.prepare.js';
import { newsletterBatchJob } from './emails.batch.js';

/**
 * A newsletter whose jobs keep dying with their instance is given up, and the email then says it failed (the
 * admin shows it and offers a retry) instead of staying pending or submitting for ever. The app runs no job
 * runner of its own: the test starts one with the newsletter jobs when the jobs are set up as it wants them.
 */
const sink = new MailSink();
let smtpUrl = '';
beforeAll(async () => {
  smtpUrl = await sink.start();
});
afterAll(async () => {
  await sink.stop();
});
const t = useTestSite({ settings: () => ({ NEWSLETTER_SMTP_URL: smtpUrl, JOBS_POLL_MS: '50' }) });

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Runs a job runner with `kinds` of the newsletter jobs until `done` holds. */
async function runJobsUntil<T>(
  kinds: (typeof NEWSLETTER_PREPARE_JOB | typeof NEWSLETTER_BATCH_JOB)[],
  done: () => Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  const base = ctxBaseFromConfig(t.config, t.connection, quiet);
  const sender = createBulkSender(t.config);
  const all: JobHandlers = {
    [NEWSLETTER_PREPARE_JOB]: newsletterPrepareJob(base, t.config),
    [NEWSLETTER_BATCH_JOB]: newsletterBatchJob(base, t.config, sender),
  };
  const runner = new JobRunner({
    db: t.db,
    engine: t.connection.engine,
    clock: t.clock,
    config: { ...t.config.jobs, pollMs: 50 },
    log: quiet,
    jobs: Object.fromEntries(kinds.map((kind) => [kind, all[kind]!])),
  });
  runner.start();
  try {
    return await waitFor(done, 30_000, what);
  } finally {
    await runner.stop();
    sender?.close();
  }
}

/** As if three instances had claimed the job and died running it: pending, its lease run out. */
const diedThreeTimes = (kind: string) =>
  t.db
    .updateTable('jobs')
    .set({ attempts: MAX_JOB_ATTEMPTS, lease_owner: 'dead-instance', lease_expires_at: new Date(Date.now() - 1000) })
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .execute();

const emailOf = async (id: string) => first(await t.admin.get(`/emails/${id}/`), 'emails');
const jobsOf = (kind: string) => t.db.selectFrom('jobs').select(['status', 'error']).where('kind', '=', kind).execute();

async function publishToNewsletter(title: string): Promise<string> {
  const postId = await makePost(t, { title, lexical: lexicalOf('Hello readers.') });
  const current = first(await t.admin.get(`/posts/${postId}/`), 'posts');
  const res = await t.admin.put(`/posts/${postId}/?newsletter=default-newsletter`, { posts: [{ updated_at: current.updated_at, status: 'published' }] });
  expect(res.statusCode).toBe(200);
  return first(res, 'posts').email.id as string;
}

describe('newsletter jobs given up', () => {
  beforeAll(async () => {
    expect((await t.admin.post('/members/', { members: [{ email: 'reader@example.com' }] })).statusCode).toBe(201);
  });

  it('fails the email when its prepare job is given up, and a retry then sends it', async () => {
    const id = await publishToNewsletter('Given up before batching');
    await diedThreeTimes(NEWSLETTER_PREPARE_JOB);
    const failed = await runJobsUntil(
      [NEWSLETTER_PREPARE_JOB],
      async () => (await jobsOf(NEWSLETTER_PREPARE_JOB)).some((job) => job.status === 'failed'),
      'the prepare job to be given up',
    );
    expect(failed).toBe(true);
    expect(await jobsOf(NEWSLETTER_PREPARE_JOB)).toEqual([{ status: 'failed', error: `given up after ${MAX_JOB_ATTEMPTS} attempts` }]);
    expect(await emailOf(id)).toMatchObject({ status: 'failed', error: 'An unexpected error occurred, please retry sending your newsletter.' });

    const retry = await t.admin.put(`/emails/${id}/retry/`, {});
    expect(first(retry, 'emails')).toMatchObject({ id, status: 'pending' });
    const sent = await runJobsUntil(
      [NEWSLETTER_PREPARE_JOB, NEWSLETTER_BATCH_JOB],
      async () => {
        const email = await emailOf(id);
        return email.status === 'submitted' && email;
      },
      'the retried email to be sent',
    );
    expect(sent).toMatchObject({ status: 'submitted', email_count: 1, delivered_count: 1, error: null });
    expect(sink.received.filter((mail) => mail.subject === 'Given up before batching')).toHaveLength(1);
  });

  it('fails a batch given up, and the email with it', async () => {
    const id = await publishToNewsletter('Given up while sending');
    // The prepare runs; nothing here runs the batch job it queues.
    await runJobsUntil([NEWSLETTER_PREPARE_JOB], async () => (await emailOf(id)).status === 'submitting', 'the email to be batched');
    await diedThreeTimes(NEWSLETTER_BATCH_JOB);
    await runJobsUntil([NEWSLETTER_BATCH_JOB], async () => (await emailOf(id)).status === 'failed', 'the email to fail');
    expect(await emailOf(id)).toMatchObject({ status: 'failed', error: 'An unexpected error occurred, please retry sending your newsletter.' });
    const [batch] = (await t.admin.get(`/emails/${id}/batches/`)).json().batches;
    expect(batch).toMatchObject({ status: 'failed', error_message: `given up after ${MAX_JOB_ATTEMPTS} attempts` });
    expect(sink.received.filter((mail) => mail.subject === 'Given up while sending')).toHaveLength(0);
  });
});
