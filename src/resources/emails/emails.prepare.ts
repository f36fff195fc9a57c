import type { CtxBase, WriteCtx } from '../../ctx.js';
import type { Config } from '../../config.js';
import type { EmailRecipientRow, EmailRow, NewsletterRow, PostRow } from '../../db/schema.js';
import { jobCtx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { enqueueJob, type JobHandler } from '../../jobs/jobs.js';
import { renderPostEmail } from '../email-render/email-render.js';
import { recipientFilter } from './emails.recipients.js';
import {
  batchesOfEmail,
  failUnsentEmail,
  findEmail,
  findPostOfEmail,
  insertBatch,
  insertRecipients,
  recipientMembersPage,
  reopenFailedBatches,
  SEND_FAILED,
  updateEmail,
} from './emails.queries.js';
import { findNewsletter } from '../newsletters/newsletters.queries.js';

/** The job that turns a pending email into batches of recipients (queued by the publish, and by a retry). */
export const NEWSLETTER_PREPARE_JOB = 'newsletter-prepare';
/** The job that sends one batch; one instance holds it (and so the batch) at a time. */
export const NEWSLETTER_BATCH_JOB = 'newsletter-batch';

export interface PreparePayload {
  emailId: string;
}
export interface BatchPayload {
  emailId: string;
  batchId: string;
}

/** Members read per query while the recipient rows are written: memory stays flat however many there are. */
const PAGE = 1000;

/** Queues the send of an email, in the transaction that created (or reopened) it. */
export async function queueEmailSend(w: WriteCtx, emailId: string): Promise<void> {
  await enqueueJob(w.db, { kind: NEWSLETTER_PREPARE_JOB, payload: { emailId } satisfies PreparePayload, createdBy: w.actingUserId, now: w.clock.now() });
}

/**
 * The newsletter's subscribers matching the email's filter now (not when it was published), one recipient row
 * each, in batches of `batchSize`, one set of batches per content segment.
 */
async function createBatches(
  w: WriteCtx,
  email: EmailRow,
  post: PostRow,
  newsletter: NewsletterRow,
  batchSize: number,
): Promise<{ ids: string[]; recipients: number }> {
  const { segments } = await renderPostEmail(w.db, post, newsletter, null, { siteUrl: w.site.url });
  const now = w.clock.now();
  const ids: string[] = [];
  let recipients = 0;
  for (const segment of segments.length > 0 ? segments : [null]) {
    const filter = recipientFilter(newsletter, email.recipient_filter, segment);
    let batchId = '';
    let inBatch = 0;
    let afterId = '';
    for (;;) {
      const members = await recipientMembersPage(w.db, w.engine, filter, afterId, PAGE);
      if (members.length === 0) break;
      afterId = members[members.length - 1]!.id;
      const rows: EmailRecipientRow[] = [];
      for (const member of members) {
        if (!batchId || inBatch === batchSize) {
          if (rows.length) await insertRecipients(w.db, rows.splice(0));
          batchId = objectId();
          inBatch = 0;
          ids.push(batchId);
          await insertBatch(w.db, {
            id: batchId,
            email_id: email.id,
            provider_id: null,
            status: 'pending',
            member_segment: segment,
            error_status_code: null,
            error_message: null,
            error_data: null,
            created_at: now,
            updated_at: now,
          });
        }
        rows.push({
          id: objectId(),
          email_id: email.id,
          member_id: member.id,
          batch_id: batchId,
          processed_at: null,
          delivered_at: null,
          opened_at: null,
          failed_at: null,
          // The query skips members without a uuid (none in practice: Ghost gives every member one).
          member_uuid: member.uuid!,
          member_email: member.email,
          member_name: member.name,
        });
        inBatch++;
        recipients++;
      }
      await insertRecipients(w.db, rows);
    }
  }
  return { ids, recipients };
}

/**
 * The prepare job: an email's first run creates its batches and recipients; a retry reopens the failed
 * batches. Either way a batch job is queued per batch left to send, in the same transaction as the job's
 * completion, so a prepare taken over after a crash starts from nothing or finds its work done.
 */
export function newsletterPrepareJob(base: CtxBase, config: Config): JobHandler {
  const run: JobHandler = async (job) => {
    const { emailId } = job.payload as PreparePayload;
    const ctx = jobCtx(base);
    const email = await findEmail(ctx.db, emailId);
    if (!email || email.status === 'submitted' || email.status === 'failed') return { skipped: email?.status ?? 'missing' };
    const post = await findPostOfEmail(ctx.db, email.post_id);
    const newsletter = email.newsletter_id ? await findNewsletter(ctx.db, email.newsletter_id) : undefined;
    return ctx.write(async (w) => {
      const now = w.clock.now();
      let batchIds: string[];
      const values: Partial<EmailRow> = { status: 'submitting', error: null, updated_at: now };
      if ((await batchesOfEmail(w.db, emailId)).length > 0) {
        batchIds = await reopenFailedBatches(w.db, emailId, now);
      } else if (!post || !newsletter) {
        // The post or newsletter is gone: nothing to render, nobody to send to.
        batchIds = [];
        values.email_count = 0;
      } else {
        const created = await createBatches(w, email, post, newsletter, config.newsletter.batchSize);
        batchIds = created.ids;
        values.email_count = created.recipients;
      }
      if (batchIds.length === 0) values.status = 'submitted';
      await updateEmail(w.db, emailId, values);
      for (const batchId of batchIds) {
        await enqueueJob(w.db, { kind: NEWSLETTER_BATCH_JOB, payload: { emailId, batchId } satisfies BatchPayload, createdBy: null, now });
      }
      const result = { batches: batchIds.length, recipients: values.email_count ?? null };
      await job.complete(w.db, result);
      return result;
    });
  };
  // An email whose prepare failed or was given up is failed (it made no batches: they commit with its
  // completion), so the admin shows it and can retry instead of it staying pending.
  const failed = (payload: unknown) => jobCtx(base).write((w) => failUnsentEmail(w.db, (payload as PreparePayload).emailId, SEND_FAILED, w.clock.now()));
  return Object.assign(run, { failed });
}
