import { isEmail } from '../../db/string-checks.js';
import type { Ctx, WriteCtx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { objectId, uuid } from '../../db/ids.js';
import { chunksOf } from '../../db/chunks.js';
import { errors } from '../../errors.js';
import { activeNewslettersOfMember, findMember, findMemberByEmail, signupNewsletterIds } from './members.queries.js';
import { resolveLabels, resolveNewsletters, resolveTiers, setMemberLabels, setMemberNewsletters, setMemberTiers } from './members.relations.js';
import type { MemberInput } from './members.schemas.js';
import { recordMemberChanges, recordMemberCreated, recordSubscriptions } from './members.activity.js';
import { beforeMemberChange, recordMemberAdded, recordMemberDeleted, recordMemberEdited } from './members.events.js';

/** Ghost checks the address with validator's current rules (`legacy: false`) after the schema. */
function assertEmail(email: string): void {
  if (!isEmail(email)) throw errors.validation({ message: 'Invalid Email', property: 'email' });
}

const alreadyExists = (action: 'add' | 'edit') =>
  errors.validation({ message: 'Member already exists.', context: `Attempting to ${action} member with existing email address`, property: 'email' });

/**
 * Stripe is never connected here, so what needs it is refused as Ghost refuses it then: `comped: true`
 * (use `tiers` to comp a member) and a Stripe customer id.
 */
function assertNoStripeData(input: MemberInput): void {
  if (!input.comped && !input.stripe_customer_id) return;
  throw errors.validation({
    message: 'Missing Stripe connection.',
    context: 'Attempting to import members with Stripe data when there is no Stripe account connected.',
    help: 'You need to connect to Stripe to import Stripe customers. ',
    property: input.comped ? 'comped' : 'stripe_customer_id',
  });
}

/** `tiers` and its older name `products` are one field. */
const tiersOf = (input: MemberInput) => input.tiers ?? input.products;

/** A new member's row: what is given, and the defaults every new member starts with (API and CSV import alike). */
export function newMemberRow(w: WriteCtx, given: Pick<MemberRow, 'email' | 'status' | 'name' | 'note' | 'created_at' | 'updated_at'>): MemberRow {
  return {
    ...given,
    id: objectId(),
    uuid: uuid(),
    transient_id: uuid(),
    expertise: null,
    geolocation: null,
    enable_comment_notifications: true,
    email_count: 0,
    email_opened_count: 0,
    email_open_rate: null,
    email_disabled: false,
    last_seen_at: null,
    last_commented_at: null,
    created_by: w.actingUserId,
    updated_by: w.actingUserId,
  };
}

/** Adds a member with its labels, tiers (comped) and newsletters (the sign-up ones unless told otherwise); returns its id. */
export async function addMember(ctx: Ctx, input: MemberInput & { email: string }): Promise<string> {
  assertNoStripeData(input);
  assertEmail(input.email);
  return ctx.write(async (w) => {
    if (await findMemberByEmail(w.db, w.engine, input.email)) throw alreadyExists('add');
    const tiers = await resolveTiers(w, tiersOf(input) ?? []);
    const at = w.clock.now();
    const row = newMemberRow(w, {
      email: input.email,
      status: tiers.length > 0 ? 'comped' : 'free',
      name: input.name ?? null,
      note: input.note ?? null,
      created_at: at,
      updated_at: at,
    });
    await w.db.insertInto('members').values(row).execute();
    if (input.labels) await setMemberLabels(w, row.id, await resolveLabels(w, input.labels));
    await setMemberTiers(w, row.id, tiers);
    const newsletters = input.newsletters
      ? (await resolveNewsletters(w, input.newsletters)).map((n) => n.id)
      : input.subscribed === false
        ? []
        : (await signupNewsletterIds(w.db)).map((n) => n.id);
    const subscribed = await setMemberNewsletters(w, row.id, newsletters);
    await recordMemberCreated(w, row, subscribed.added);
    await recordMemberAdded(w, row.id, { labels: input.labels !== undefined });
    return row.id;
  });
}

/** The newsletters an edit subscribes the member to, or null when it leaves them alone (Ghost's rules). */
async function editedNewsletters(w: WriteCtx, memberId: string, input: MemberInput): Promise<string[] | null> {
  if (input.newsletters) return (await resolveNewsletters(w, input.newsletters)).map((n) => n.id);
  if (input.subscribed === false) return [];
  if (input.subscribed !== true) return null;
  const active = await activeNewslettersOfMember(w.db, memberId);
  return active.length > 0 ? null : (await signupNewsletterIds(w.db)).map((n) => n.id);
}

/**
 * Edits a member. Given `tiers` replace the member's tiers and set its status (comped with one, free
 * without); `comped` needs Stripe and is ignored, as Ghost ignores it without Stripe.
 */
export async function editMember(ctx: Ctx, id: string, input: MemberInput): Promise<void> {
  await ctx.write(async (w) => {
    const existing = await findMember(w.db, id);
    if (!existing) throw errors.notFound(`Could not find Member ${id}`);
    const before = await beforeMemberChange(w, id);
    const update: Partial<MemberRow> = {};
    if (input.email !== undefined && input.email !== existing.email) {
      assertEmail(input.email);
      if (await findMemberByEmail(w.db, w.engine, input.email, id)) throw alreadyExists('edit');
      update.email = input.email;
    }
    if (input.name !== undefined) update.name = input.name;
    if (input.note !== undefined) update.note = input.note;
    const tiers = tiersOf(input);
    if (tiers) {
      const resolved = await resolveTiers(w, tiers);
      await setMemberTiers(w, id, resolved);
      update.status = resolved.length > 0 ? 'comped' : 'free';
    }
    if (input.labels) await setMemberLabels(w, id, await resolveLabels(w, input.labels));
    const newsletters = await editedNewsletters(w, id, input);
    if (newsletters) await recordSubscriptions(w, id, await setMemberNewsletters(w, id, newsletters));
    // As in Ghost, `updated_at` moves only when a column changes, not for labels or newsletters alone.
    if ((Object.keys(update) as (keyof MemberRow)[]).some((key) => update[key] !== existing[key])) {
      await w.db
        .updateTable('members')
        .set({ ...update, updated_at: w.clock.now(), updated_by: w.actingUserId })
        .where('id', '=', id)
        .execute();
    }
    await recordMemberChanges(w, existing, { ...existing, ...update });
    await recordMemberEdited(w, id, before, { tiers: tiers !== undefined });
  });
}

/** Deletes a member with its links to labels, tiers and newsletters. */
export async function deleteMember(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async (w) => {
    // Ghost's lookup fails as an empty bookshelf result, which its error handler turns into the default 404.
    if (!(await findMember(w.db, id))) throw errors.notFound();
    const before = await beforeMemberChange(w, id);
    await deleteMembersById(w.db, [id]);
    await recordMemberDeleted(w, id, before);
  });
}

const MEMBER_CHILD_TABLES = [
  'members_labels',
  'members_products',
  'members_newsletters',
  'members_created_events',
  'members_subscribe_events',
  'members_status_events',
  'members_email_change_events',
] as const;

/** Deletes these members with their links and activity, in chunks the engines' parameter limits allow. */
export async function deleteMembersById(db: WriteCtx['db'], ids: readonly string[]): Promise<void> {
  for (const chunk of chunksOf(ids)) {
    for (const table of MEMBER_CHILD_TABLES) {
      await db.deleteFrom(table).where('member_id', 'in', chunk).execute();
    }
    await db.deleteFrom('members').where('id', 'in', chunk).execute();
  }
}
