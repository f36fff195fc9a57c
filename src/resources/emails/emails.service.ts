import type { Ctx } from '../../ctx.js';
import type { EmailRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { queueEmailSend } from './emails.prepare.js';
import { findEmail, findPostOfEmail, updateEmail } from './emails.queries.js';

/**
 * `PUT /emails/:id/retry/` (Ghost's `retryEmail`): only for a post still published or sent; a failed email
 * goes back to `pending` and its failed batches are sent again by a new job. Ghost schedules the job whatever
 * the status and the job then ignores an email neither pending nor failed; here nothing is queued for those.
 */
export async function retryEmail(ctx: Ctx, id: string): Promise<EmailRow> {
  return ctx.write(async (w) => {
    const email = await findEmail(w.db, id);
    if (!email) throw errors.notFound({ message: 'Email not found.' });
    const post = await findPostOfEmail(w.db, email.post_id);
    if (post?.status !== 'published' && post?.status !== 'sent') throw errors.incorrectUsage({ message: 'Can only retry emails for published posts' });
    if (email.status !== 'failed') return email;
    const now = w.clock.now();
    await updateEmail(w.db, id, { status: 'pending', updated_at: now });
    await queueEmailSend(w, id);
    return { ...email, status: 'pending', updated_at: now };
  });
}
