import type { Ctx, WriteCtx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { errors } from '../../errors.js';
import { findLabel } from '../labels/labels.queries.js';
import { assertSelection, selectedMemberIds, type BulkSelection } from './members.bulk.js';
import type { MemberBulkInput } from './members.schemas.js';

/**
 * `PUT /members/bulk/?filter=…|search=…|all=true` (Ghost's members `bulkEdit`): unsubscribe the selected
 * members from every newsletter (or from `newsletter`), add a label to them or remove one, in one
 * transaction. Like Ghost's, these edits write the link tables only: no `updated_at`, no webhook events,
 * no subscription events.
 */

/** A link Ghost could not insert, and why (its answer carries the driver's error object). */
interface Failure {
  message: string;
  errorDetails: { member_id: string; label_id: string; id: string };
}

export interface BulkEditResult {
  stats: { successful: number; unsuccessful: number };
  errors: Failure[];
  unsuccessfulData: Failure['errorDetails'][];
}

const ACTIONS = ['unsubscribe', 'addLabel', 'removeLabel'] as const;
type Action = (typeof ACTIONS)[number];
const isAction = (value: unknown): value is Action => ACTIONS.includes(value as Action);

/** Rows go in and out in chunks the engines' parameter limits allow. */
const CHUNK = 500;
const chunks = <T>(items: readonly T[]) => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/** The label the action names. Ghost reads `meta.label.id` unchecked and fails with a 500 without it. */
function labelOf(input: MemberBulkInput): string {
  const id = (input.meta as { label?: { id?: unknown } } | undefined)?.label?.id;
  if (typeof id !== 'string' || id === '')
    throw errors.validation({ message: 'Validation (FieldIsRequired) failed for meta.label.id', property: 'meta.label.id' });
  return id;
}

async function unsubscribe(w: WriteCtx, ids: string[], newsletter: unknown): Promise<number> {
  // With a newsletter, Ghost counts the subscriptions it removed; without one, the members it unsubscribed.
  if (newsletter !== undefined && newsletter !== null) {
    let removed = 0;
    for (const chunk of chunks(ids)) {
      const result = await w.db
        .deleteFrom('members_newsletters')
        .where('newsletter_id', '=', String(newsletter))
        .where('member_id', 'in', chunk)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
  for (const chunk of chunks(ids)) await w.db.deleteFrom('members_newsletters').where('member_id', 'in', chunk).execute();
  return ids.length;
}

async function removeLabel(w: WriteCtx, ids: string[], labelId: string): Promise<number> {
  let removed = 0;
  for (const chunk of chunks(ids)) {
    const result = await w.db.deleteFrom('members_labels').where('label_id', '=', labelId).where('member_id', 'in', chunk).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}

/**
 * Ghost inserts a link for every selected member, a second one for a member that had the label already;
 * here such a member keeps its one link, and is counted as Ghost counts it. A label that does not exist
 * fails every link, reported member by member as Ghost reports the foreign key failures.
 */
async function addLabel(w: WriteCtx, ids: string[], labelId: string): Promise<BulkEditResult> {
  if (!(await findLabel(w.db, { id: labelId }))) {
    const unsuccessfulData = ids.map((member_id) => ({ member_id, label_id: labelId, id: objectId() }));
    return {
      stats: { successful: 0, unsuccessful: ids.length },
      errors: unsuccessfulData.map((errorDetails) => ({ message: 'Label not found.', errorDetails })),
      unsuccessfulData,
    };
  }
  for (const chunk of chunks(ids)) {
    const had = await w.db.selectFrom('members_labels').select('member_id').where('label_id', '=', labelId).where('member_id', 'in', chunk).execute();
    const skip = new Set(had.map((row) => row.member_id));
    const rows = chunk.filter((id) => !skip.has(id)).map((member_id) => ({ id: objectId(), member_id, label_id: labelId, sort_order: 0 }));
    if (rows.length > 0) await w.db.insertInto('members_labels').values(rows).execute();
  }
  return done(ids.length);
}

const done = (successful: number): BulkEditResult => ({ stats: { successful, unsuccessful: 0 }, errors: [], unsuccessfulData: [] });

/** The answer's `meta` (Ghost's `bulk` has no `action`: its serializer looks for it where it is not). */
export async function bulkEditMembers(ctx: Ctx, selection: BulkSelection, input: MemberBulkInput): Promise<BulkEditResult> {
  const { action } = input;
  if (!isAction(action)) throw errors.incorrectUsage('Unsupported bulk action');
  assertSelection(selection, 'bulk edit');
  return ctx.write(async (w) => {
    const ids = await selectedMemberIds(w, selection);
    if (action === 'unsubscribe') return done(await unsubscribe(w, ids, input.newsletter));
    // Without members Ghost never reads the label, so a missing one is no error then.
    if (ids.length === 0) return done(0);
    const labelId = labelOf(input);
    return action === 'addLabel' ? addLabel(w, ids, labelId) : done(await removeLabel(w, ids, labelId));
  });
}
