import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { Database, EmailBatchRow, EmailRecipientFailureRow, EmailRecipientRow, EmailRow, MemberRow, PostRow } from '../../db/schema.js';
import { chunksOf, insertInChunks } from '../../db/chunks.js';
import { filterWhere } from '../../filter/filter.js';
import { MEMBERS_FILTER, MEMBERS_FILTER_RULES } from '../members/members.browse.js';
import { columnsOf } from '../../browse/fields.js';
import { EMAIL_BATCH_FIELDS, EMAIL_FIELDS } from './emails.fields.js';

const EMAIL_COLUMNS = columnsOf(EMAIL_FIELDS);
const EMAIL_BATCH_COLUMNS = columnsOf(EMAIL_BATCH_FIELDS);

export function findEmail(db: ReadDb, id: string): Promise<EmailRow | undefined> {
  return db.selectFrom('emails').select(EMAIL_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function findPostOfEmail(db: ReadDb, postId: string): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
}

export async function insertEmail(db: Db, row: EmailRow): Promise<void> {
  await db.insertInto('emails').values(row).execute();
}

export async function postHasEmail(db: ReadDb, postId: string): Promise<boolean> {
  return (await db.selectFrom('emails').select('id').where('post_id', '=', postId).executeTakeFirst()) !== undefined;
}

export function emailsOfPosts(db: ReadDb, postIds: readonly string[]): Promise<EmailRow[]> {
  return postIds.length ? db.selectFrom('emails').select(EMAIL_COLUMNS).where('post_id', 'in', postIds).execute() : Promise.resolve([]);
}

export type RecipientMember = Pick<MemberRow, 'id' | 'uuid' | 'email' | 'name'>;

/** The next page of members a filter matches, after `afterId` in id order (a keyset page: memory stays flat). */
export async function recipientMembersPage(db: ReadDb, engine: Engine, filter: string, afterId: string, limit: number): Promise<RecipientMember[]> {
  const where = filterWhere(MEMBERS_FILTER, engine, filter, MEMBERS_FILTER_RULES);
  let query = db
    .selectFrom('members')
    .select(['members.id', 'members.uuid', 'members.email', 'members.name'])
    .where('members.id', '>', afterId)
    .where('members.uuid', 'is not', null);
  if (where) query = query.where(where);
  return query.orderBy('members.id').limit(limit).execute();
}

export async function countMatchingMembers(db: ReadDb, engine: Engine, filter: string): Promise<number> {
  const where = filterWhere(MEMBERS_FILTER, engine, filter, MEMBERS_FILTER_RULES);
  let query = db.selectFrom('members').select(sql<number>`count(*)`.as('n'));
  if (where) query = query.where(where);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

export async function insertBatch(db: Db, batch: EmailBatchRow): Promise<void> {
  await db.insertInto('email_batches').values(batch).execute();
}

export async function insertRecipients(db: Db, rows: readonly EmailRecipientRow[]): Promise<void> {
  await insertInChunks(db, 'email_recipients', rows);
}

export function batchesOfEmail(db: ReadDb, emailId: string): Promise<EmailBatchRow[]> {
  return db.selectFrom('email_batches').select(EMAIL_BATCH_COLUMNS).where('email_id', '=', emailId).orderBy('id').execute();
}

export function findBatch(db: ReadDb, id: string): Promise<EmailBatchRow | undefined> {
  return db.selectFrom('email_batches').select(EMAIL_BATCH_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function updateEmail(db: Db, id: string, values: Partial<EmailRow>): Promise<void> {
  await db.updateTable('emails').set(values).where('id', '=', id).execute();
}

export async function updateBatch(db: Db, id: string, values: Partial<EmailBatchRow>): Promise<void> {
  await db.updateTable('email_batches').set(values).where('id', '=', id).execute();
}

/** Failed batches go back to pending for a retry; returns the batches left to send (pending ones included). */
export async function reopenFailedBatches(db: Db, emailId: string, now: Date): Promise<string[]> {
  await db
    .updateTable('email_batches')
    .set({ status: 'pending', error_status_code: null, error_message: null, error_data: null, updated_at: now })
    .where('email_id', '=', emailId)
    .where('status', '=', 'failed')
    .execute();
  const rows = await db.selectFrom('email_batches').select('id').where('email_id', '=', emailId).where('status', 'in', ['pending', 'submitting']).execute();
  return rows.map((row) => row.id);
}

/** A recipient still to be sent, with what personalisation needs of its member (who may have been deleted since). */
export type PendingRecipient = Pick<EmailRecipientRow, 'id' | 'member_id' | 'member_uuid' | 'member_email' | 'member_name'> & {
  status: string | null;
  member_created_at: Date | null;
};

export function unprocessedRecipients(db: ReadDb, batchId: string): Promise<PendingRecipient[]> {
  return db
    .selectFrom('email_recipients')
    .leftJoin('members', 'members.id', 'email_recipients.member_id')
    .select([
      'email_recipients.id',
      'email_recipients.member_id',
      'email_recipients.member_uuid',
      'email_recipients.member_email',
      'email_recipients.member_name',
      'members.status',
      'members.created_at as member_created_at',
    ])
    .where('email_recipients.batch_id', '=', batchId)
    .where('email_recipients.processed_at', 'is', null)
    .orderBy('email_recipients.id')
    .execute();
}

/**
 * Records recipients the SMTP server accepted, each once (a row already processed is left alone), and adds
 * them to the email's and their members' counts. Returns how many were new. Call it in a transaction: on a
 * database server the rows are locked while they are counted, so an instance that took a batch over and one
 * that stalled in it, both recording the same copy, count it once (the second sees it processed).
 */
export async function recordDelivered(
  db: Db,
  engine: Engine,
  emailId: string,
  recipients: readonly { id: string; memberId: string }[],
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const chunk of chunksOf(recipients)) {
    const unprocessed = db
      .selectFrom('email_recipients')
      .select(['id', 'member_id'])
      .where(
        'id',
        'in',
        chunk.map((r) => r.id),
      )
      .where('processed_at', 'is', null);
    // SQLite has no FOR UPDATE; its writers are serialised (and one file serves one instance).
    const fresh = await (engine.inProcess ? unprocessed : unprocessed.forUpdate()).execute();
    if (fresh.length === 0) continue;
    const ids = fresh.map((r) => r.id);
    await db.updateTable('email_recipients').set({ processed_at: now, delivered_at: now }).where('id', 'in', ids).where('processed_at', 'is', null).execute();
    await db
      .updateTable('members')
      .set((eb) => ({ email_count: eb('email_count', '+', 1) }))
      .where(
        'id',
        'in',
        fresh.map((r) => r.member_id),
      )
      .execute();
    recorded += fresh.length;
  }
  if (recorded > 0) {
    await db
      .updateTable('emails')
      .set((eb) => ({ delivered_count: eb('delivered_count', '+', recorded) }))
      .where('id', '=', emailId)
      .execute();
  }
  return recorded;
}

/** A refusal: permanent ones end the recipient (`failed_at`, the email's `failed_count`); temporary ones leave it to be sent again. */
export async function recordFailure(db: Db, failure: EmailRecipientFailureRow): Promise<void> {
  if (failure.severity === 'permanent') {
    const updated = await db
      .updateTable('email_recipients')
      .set({ processed_at: failure.failed_at, failed_at: failure.failed_at })
      .where('id', '=', failure.email_recipient_id)
      .where('processed_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    await db
      .updateTable('emails')
      .set((eb) => ({ failed_count: eb('failed_count', '+', 1) }))
      .where('id', '=', failure.email_id)
      .execute();
  }
  // One failure row per recipient, the latest (Ghost keeps one per recipient too).
  await db.deleteFrom('email_recipient_failures').where('email_recipient_id', '=', failure.email_recipient_id).execute();
  await db.insertInto('email_recipient_failures').values(failure).execute();
}

/** Fails a batch not sent yet (a job that ended outside its own handling). */
export async function failOpenBatch(db: Db, id: string, error: string, now: Date): Promise<void> {
  await db
    .updateTable('email_batches')
    .set({ status: 'failed', error_message: error, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'submitting'])
    .execute();
}

/** Fails an email still waiting for its batches. */
export async function failUnsentEmail(db: Db, id: string, error: string, now: Date): Promise<void> {
  await db
    .updateTable('emails')
    .set({ status: 'failed', error, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'submitting'])
    .execute();
}

/** Ghost's error on an email whose send failed. */
export const SEND_FAILED = 'An unexpected error occurred, please retry sending your newsletter.';

/**
 * Ends a send whose batches are all done: `submitted`, or `failed` when a batch failed. Run after each batch
 * commits: whichever instance commits the last batch sees every other one done.
 */
export async function finishEmailIfDone(db: Db, emailId: string, failedError: string, now: Date): Promise<void> {
  const open = await db
    .selectFrom('email_batches')
    .select('status')
    .where('email_id', '=', emailId)
    .where('status', 'in', ['pending', 'submitting', 'failed'])
    .execute();
  if (open.some((b) => b.status !== 'failed')) return;
  const failed = open.length > 0;
  await db
    .updateTable('emails')
    .set({ status: failed ? 'failed' : 'submitted', error: failed ? failedError : null, updated_at: now })
    .where('id', '=', emailId)
    .where('status', '=', 'submitting')
    .execute();
}

/** Records the first open of a recipient's copy; false when it was opened before (or does not exist). */
export async function recordOpen(db: Db, recipientId: string, now: Date): Promise<boolean> {
  const recipient = await db.selectFrom('email_recipients').select(['email_id', 'member_id']).where('id', '=', recipientId).executeTakeFirst();
  if (!recipient) return false;
  const updated = await db
    .updateTable('email_recipients')
    .set({ opened_at: now })
    .where('id', '=', recipientId)
    .where('opened_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await db
    .updateTable('emails')
    .set((eb) => ({ opened_count: eb('opened_count', '+', 1) }))
    .where('id', '=', recipient.email_id)
    .execute();
  const member = await db.selectFrom('members').select(['email_count', 'email_opened_count']).where('id', '=', recipient.member_id).executeTakeFirst();
  if (member) {
    const opened = member.email_opened_count + 1;
    // Ghost shows an open rate once a member has been sent five tracked emails.
    const rate = member.email_count >= 5 ? Math.round((Math.min(opened, member.email_count) / member.email_count) * 100) : null;
    await db.updateTable('members').set({ email_opened_count: opened, email_open_rate: rate }).where('id', '=', recipient.member_id).execute();
  }
  return true;
}

export function findRecipient(db: ReadDb, id: string): Promise<EmailRecipientRow | undefined> {
  return db.selectFrom('email_recipients').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A member's active newsletters with their uuids (an unsubscribe link names its newsletter by uuid). */
export function activeNewsletterUuidsOfMember(db: ReadDb, memberId: string): Promise<{ id: string; uuid: string }[]> {
  return db
    .selectFrom('members_newsletters')
    .innerJoin('newsletters', 'newsletters.id', 'members_newsletters.newsletter_id')
    .select(['newsletters.id', 'newsletters.uuid'])
    .where('members_newsletters.member_id', '=', memberId)
    .where('newsletters.status', '=', 'active')
    .execute();
}

export async function membersByIds(db: ReadDb, ids: readonly string[]): Promise<Map<string, Pick<MemberRow, 'id' | 'uuid' | 'name' | 'email'>>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('members').select(['id', 'uuid', 'name', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function recipientsByIds(db: ReadDb, ids: readonly string[]): Promise<Map<string, EmailRecipientRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('email_recipients').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function recipientCountsOfBatches(db: ReadDb, batchIds: readonly string[]): Promise<Map<string, number>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('email_recipients')
    .select(['batch_id', sql<number>`count(*)`.as('n')])
    .where('batch_id', 'in', batchIds)
    .groupBy('batch_id')
    .execute();
  return new Map(rows.map((row) => [row.batch_id, Number(row.n)]));
}

/** The recipients of the batch on the row (`include=count.recipients`, and `order=count.recipients`). */
export function batchRecipientCount(eb: ExpressionBuilder<Database, 'email_batches'>) {
  return eb
    .selectFrom('email_recipients')
    .whereRef('email_recipients.batch_id', '=', 'email_batches.id')
    .select(sql<number>`count(email_recipients.id)`.as('n'));
}
