import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx, CtxBase } from '../../ctx.js';
import type { Config } from '../../config.js';
import type { EmailRecipientFailureRow } from '../../db/schema.js';
import { jobCtx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { LostLeaseError, type JobHandler } from '../../jobs/jobs.js';
import { SendRefusal, type BulkSender } from '../../mail/bulk-transport.js';
import { readSettings } from '../../settings/settings.js';
import { personaliseEmail, recordEmailLinks, renderPostEmail, type RenderedEmail } from '../email-render/email-render.js';
import { newsletterSender } from '../email-render/email-render.sender.js';
import { openPixelUrl, unsubscribeUrl } from './emails.links.js';
import type { BatchPayload } from './emails.prepare.js';
import {
  findBatch,
  findEmail,
  findPostOfEmail,
  failOpenBatch,
  finishEmailIfDone,
  SEND_FAILED,
  recordDelivered,
  recordFailure,
  unprocessedRecipients,
  updateBatch,
  type PendingRecipient,
} from './emails.queries.js';
import { findNewsletter } from '../newsletters/newsletters.queries.js';

const NO_SMTP = 'No SMTP server is configured for newsletters (NEWSLETTER_SMTP_URL or MAIL_SMTP_URL).';

/** What every copy of one batch shares. */
interface Sending {
  rendered: RenderedEmail;
  from: string;
  replyTo: string | null;
  siteUrl: string;
  validationKey: string;
  newsletterUuid: string;
  trackOpens: boolean;
}

const STATUSES = new Set(['free', 'paid', 'comped']);

/**
 * The post rendered for one email and segment, kept for that email's next batches on this instance: rendering
 * (template, inlined styles) costs far more than a batch's personalising, and the sent post does not change.
 */
const renderedEmails = new Map<string, Promise<RenderedEmail>>();
const RENDERED_KEPT = 8;

function renderedFor(emailId: string, segment: string | null, render: () => Promise<RenderedEmail>): Promise<RenderedEmail> {
  const key = `${emailId}\u0000${segment ?? ''}`;
  let found = renderedEmails.get(key);
  if (!found) {
    found = render();
    renderedEmails.set(key, found);
    // A failed render is not kept; the oldest email's copy goes when more are kept than a few sends need.
    found.catch(() => renderedEmails.delete(key));
    if (renderedEmails.size > RENDERED_KEPT) renderedEmails.delete(renderedEmails.keys().next().value!);
  }
  return found;
}

function messageFor(s: Sending, r: PendingRecipient) {
  const unsubscribe = unsubscribeUrl(s.siteUrl, r.member_uuid, s.validationKey, s.newsletterUuid);
  const personal = personaliseEmail(s.rendered, {
    recipientId: r.id,
    memberUuid: r.member_uuid,
    email: r.member_email,
    name: r.member_name,
    status: (STATUSES.has(r.status ?? '') ? r.status : 'free') as 'free' | 'paid' | 'comped',
    createdAt: r.member_created_at ?? new Date(0),
    unsubscribeUrl: unsubscribe,
    openPixelUrl: s.trackOpens ? openPixelUrl(s.siteUrl, r.id, s.validationKey) : null,
  });
  return {
    from: s.from,
    replyTo: s.replyTo,
    to: r.member_email,
    subject: s.rendered.subject,
    html: personal.html,
    text: personal.plaintext,
    // RFC 8058: mailbox providers offer an unsubscribe button that POSTs to the link.
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

const failureRow = (emailId: string, r: PendingRecipient, refusal: SendRefusal, at: Date): EmailRecipientFailureRow => ({
  id: objectId(),
  email_id: emailId,
  member_id: r.member_id,
  email_recipient_id: r.id,
  code: refusal.code,
  enhanced_code: refusal.enhancedCode,
  message: refusal.message.slice(0, 2000) || 'refused',
  severity: refusal.severity,
  failed_at: at,
  event_id: null,
});

/**
 * Records outcomes as they come, in small transactions: a flush takes everything waiting, and the next starts
 * when it ends. A copy's sender waits for its outcome to be written before it takes the next recipient, so the
 * copies a crash can send twice (accepted by the server, not yet recorded) are at most one per sender.
 */
class OutcomeRecorder {
  #delivered: { id: string; memberId: string }[] = [];
  #failures: EmailRecipientFailureRow[] = [];
  #waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  #flushing: Promise<void> | null = null;
  constructor(
    private readonly ctx: Ctx,
    private readonly emailId: string,
  ) {}

  delivered(r: PendingRecipient): Promise<void> {
    this.#delivered.push({ id: r.id, memberId: r.member_id });
    return this.#recorded();
  }

  failed(row: EmailRecipientFailureRow): Promise<void> {
    this.#failures.push(row);
    return this.#recorded();
  }

  #recorded(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    this.#flushing ??= this.#drain().finally(() => (this.#flushing = null));
    return done;
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length) {
      const delivered = this.#delivered.splice(0);
      const failures = this.#failures.splice(0);
      const waiting = this.#waiting.splice(0);
      try {
        await this.ctx.write(async (w) => {
          const now = w.clock.now();
          if (delivered.length) await recordDelivered(w.db, w.engine, this.emailId, delivered, now);
          for (const failure of failures) await recordFailure(w.db, failure);
        });
        for (const waiter of waiting) waiter.resolve();
      } catch (err) {
        for (const waiter of waiting) waiter.reject(err);
      }
    }
  }
}

/** How long the senders go on without looking at the batch's lease (a look is one read by primary key). */
const LEASE_LOOK_MS = 100;

/** Sends each copy, at most `concurrency` at once; returns the recipients refused for now, with the refusal. */
async function sendAll(
  sender: BulkSender,
  s: Sending,
  recipients: readonly PendingRecipient[],
  recorder: OutcomeRecorder,
  emailId: string,
  now: () => Date,
  held: () => Promise<boolean>,
): Promise<{ recipient: PendingRecipient; refusal: SendRefusal }[]> {
  const temporary: { recipient: PendingRecipient; refusal: SendRefusal }[] = [];
  let next = 0;
  // A pause (a stalled process, a slow database) shows as time since the last look at the lease: after one, the
  // batch goes on only while this instance still holds it, so one that took it over does not send beside it.
  let heldAt = performance.now();
  const stillHeld = async () => {
    if (performance.now() - heldAt < LEASE_LOOK_MS) return true;
    if (!(await held())) return false;
    heldAt = performance.now();
    return true;
  };
  // An outcome that could not be written stops every sender: the batch ends failed (to be retried) instead.
  let broken: unknown = null;
  const worker = async () => {
    while (next < recipients.length && !broken) {
      if (!(await stillHeld())) {
        broken ??= new LostLeaseError('the batch was taken over by another instance');
        break;
      }
      if (next >= recipients.length) break;
      const r = recipients[next++]!;
      let refusal: SendRefusal | null = null;
      try {
        await sender.send(messageFor(s, r));
      } catch (err) {
        refusal = err instanceof SendRefusal ? err : new SendRefusal(String(err), 0, null, 'temporary');
      }
      try {
        if (!refusal) await recorder.delivered(r);
        else if (refusal.severity === 'permanent') await recorder.failed(failureRow(emailId, r, refusal, now()));
        else temporary.push({ recipient: r, refusal });
      } catch (err) {
        broken ??= err;
      }
    }
  };
  // Twice the pool's connections: each connection has the next copy ready while the last one's outcome is written.
  await Promise.all(Array.from({ length: sender.concurrency * 2 }, worker));
  if (broken) throw broken;
  return temporary;
}

/**
 * The batch job: renders the post once for the batch's segment, sends each unprocessed recipient its copy
 * through the pool, records each outcome, and retries the copies refused for now with backoff. A batch
 * taken over after a crash sends only what was not recorded. The email ends `submitted` (or `failed`)
 * when its last batch does.
 */
export function newsletterBatchJob(base: CtxBase, config: Config, sender: BulkSender | null): JobHandler {
  const run: JobHandler = async (job) => {
    const { emailId, batchId } = job.payload as BatchPayload;
    const ctx = jobCtx(base);
    const now = () => ctx.clock.now();
    const batch = await findBatch(ctx.db, batchId);
    const email = await findEmail(ctx.db, emailId);
    if (!batch || !email || batch.status === 'submitted') return { skipped: true };
    const post = await findPostOfEmail(ctx.db, email.post_id);
    const newsletter = email.newsletter_id ? await findNewsletter(ctx.db, email.newsletter_id) : undefined;
    const end = async (status: 'submitted' | 'failed', error: SendRefusal | null, result: object) => {
      await ctx.write(async (w) => {
        await updateBatch(w.db, batchId, {
          status,
          error_status_code: error?.code || null,
          error_message: error ? error.message.slice(0, 2000) : null,
          updated_at: w.clock.now(),
        });
        await job.complete(w.db, result);
      });
      await ctx.write((w) => finishEmailIfDone(w.db, emailId, SEND_FAILED, w.clock.now()));
      return result;
    };
    if (!sender) return end('failed', new SendRefusal(NO_SMTP, 0, null, 'temporary'), { sent: 0 });
    if (!post || !newsletter) return end('failed', new SendRefusal('The post or its newsletter no longer exists.', 0, null, 'permanent'), { sent: 0 });
    await ctx.write((w) => updateBatch(w.db, batchId, { status: 'submitting', updated_at: w.clock.now() }));

    let rendered = await renderedFor(emailId, batch.member_segment, () =>
      renderPostEmail(ctx.db, post, newsletter, batch.member_segment, { siteUrl: ctx.site.url }),
    );
    // Click tracking: this batch's links become /r/ redirects (as Ghost, one set per batch it renders).
    if (email.track_clicks) {
      const html = rendered.html;
      rendered = { ...rendered, html: await ctx.write((w) => recordEmailLinks(w, emailId, html)) };
    }
    const settings = await readSettings(ctx.db, ['title', 'members_email_auth_secret', 'members_support_address']);
    // Reply-To by Ghost's rules, as a test send has it (`newsletter` is the sender, `support` the support address).
    const { replyTo } = newsletterSender(
      newsletter,
      settings.get('title') ?? '',
      base.mailer.fromAddress,
      settings.get('members_support_address') ?? null,
      ctx.site.url,
    );
    const sending: Sending = {
      rendered: { ...rendered, subject: email.subject || rendered.subject },
      from: email.from ?? base.mailer.fromAddress,
      replyTo,
      siteUrl: ctx.site.url,
      validationKey: settings.get('members_email_auth_secret') ?? '',
      newsletterUuid: newsletter.uuid,
      trackOpens: email.track_opens,
    };
    const recorder = new OutcomeRecorder(ctx, emailId);
    let pending = await unprocessedRecipients(ctx.db, batchId);
    const total = pending.length;
    for (let round = 0; ; round++) {
      let refused: Awaited<ReturnType<typeof sendAll>>;
      try {
        refused = await sendAll(sender, sending, pending, recorder, emailId, now, () => job.held());
      } catch (err) {
        // Taken over: the other instance sends what is left and ends the batch.
        if (err instanceof LostLeaseError) throw err;
        // The database refused an outcome: what is recorded stands, the rest is sent by a retry of the email.
        return end('failed', new SendRefusal(`Sending stopped: ${(err as Error).message}`, 0, null, 'temporary'), { recipients: total, stopped: true });
      }
      if (refused.length === 0) return end('submitted', null, { recipients: total, retries: round });
      if (round >= config.newsletter.retries) {
        await Promise.all(refused.map(({ recipient, refusal }) => recorder.failed(failureRow(emailId, recipient, refusal, now()))));
        return end('failed', refused[refused.length - 1]!.refusal, { recipients: total, refused: refused.length });
      }
      await job.progress({ recipients: total, retrying: refused.length, round: round + 1 });
      await sleep(config.newsletter.retryBaseMs * 2 ** round);
      pending = refused.map((r) => r.recipient);
    }
  };
  // A batch whose job failed outside its own handling (its render threw, or its instances died) is failed, and
  // the email with it once no batch is left open: the admin shows the failure and can retry it.
  const failed = (payload: unknown, error: string) =>
    jobCtx(base).write(async (w) => {
      const { emailId, batchId } = payload as BatchPayload;
      await failOpenBatch(w.db, batchId, error.slice(0, 2000), w.clock.now());
      await finishEmailIfDone(w.db, emailId, SEND_FAILED, w.clock.now());
    });
  return Object.assign(run, { failed });
}
