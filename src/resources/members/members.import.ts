import { sql } from 'kysely';
import type { Ctx, WriteCtx } from '../../ctx.js';
import type { Db } from '../../db/connect.js';
import type { LabelRow, MemberRow, TierRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { chunksOf, insertInChunks } from '../../db/chunks.js';
import { readSetting } from '../../settings/settings.js';
import { isoDate, wallClock } from '../../content/dates.js';
import { signupNewsletterIds } from './members.queries.js';
import { newMemberRow } from './members.service.js';
import { resolveLabels, setMemberNewsletters, setMemberTiers } from './members.relations.js';
import { DEFAULT_MAPPING, parseMembersCsv, preparedCsv, type ImportRow } from './members.csv.js';
import { check, merge, newsletterFinder, tierFinder, type Planned } from './members.import-rows.js';

/**
 * Ghost's members CSV import (`MembersCSVImporter`), with one difference of substance: Ghost commits row by
 * row, so a failure half-way leaves half a file imported; here every good row of a file goes in one
 * transaction, so a file is imported whole or not at all. Rows Ghost refuses (bad address, unknown tier, …)
 * are still reported one by one, with Ghost's messages, and skipped. A row whose address is already a member
 * (or appeared earlier in the file) updates that member as Ghost's importer does: labels added, name and note
 * replaced when given, unsubscribed when `subscribed_to_emails` is false, comped when `complimentary_plan`.
 * Imports record no webhook event, as Ghost fires none for them.
 */

export interface PreparedImport {
  /** The file in Ghost's own columns, the request's mapping and labels applied (what a background job reads). */
  csv: string;
  rows: number;
  importLabel: string;
  /** A row names a Stripe customer. */
  hasStripeData: boolean;
}

export interface ImportOptions {
  /** Header → field; null for Ghost's default mapping. */
  mapping: Readonly<Record<string, string>> | null;
  /** Labels for every imported member, besides the import's own. */
  labels: readonly string[];
}

/** `Import YYYY-MM-DD HH:mm` in the site's time zone: the label every member of one import gets. */
export async function importLabelName(ctx: Ctx): Promise<string> {
  const zone = (await readSetting(ctx.db, 'timezone')) || 'Etc/UTC';
  const { year, month, day, hour, minute } = wallClock(new Date(ctx.clock.epochMs()), zone);
  const two = (value: number) => String(value).padStart(2, '0');
  return `Import ${year}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}`;
}

/** Reads the uploaded file with the request's mapping and labels into Ghost's prepared form (Ghost's `prepare`). */
export async function prepareImport(ctx: Ctx, file: NodeJS.ReadableStream, options: ImportOptions): Promise<PreparedImport> {
  const importLabel = await importLabelName(ctx);
  const labels = [{ name: importLabel }, ...options.labels.map((name) => ({ name }))];
  const rows = await parseMembersCsv(file as never, options.mapping ?? DEFAULT_MAPPING, labels);
  return { csv: preparedCsv(rows), rows: rows.length, importLabel, hasStripeData: rows.some((row) => Boolean(row.stripe_customer_id)) };
}

export type InvalidRow = ImportRow & { error: string };

/** The `meta` Ghost answers an inline import with (and a finished background job reports as its result). */
export interface ImportResult {
  originalImportSize: number;
  stats: { imported: number; invalid: InvalidRow[] };
  import_label: ReturnType<typeof presentImportLabel> | null;
}

/** The import's label as Ghost answers it (its label model read back, in that key order). */
const presentImportLabel = (label: LabelRow) => ({
  name: label.name,
  id: label.id,
  slug: label.slug,
  created_at: isoDate(label.created_at),
  updated_at: isoDate(label.updated_at),
});

export interface PerformOptions {
  importLabel: string;
  originalImportSize: number;
  /** Told how far the reading got (background jobs record it). */
  progress?: (value: { stage: 'checking' | 'writing'; rows: number; checked: number }) => Promise<void>;
  /** Runs last in the import's transaction (a background job marks itself done there). */
  complete?: (db: Db, result: ImportResult) => Promise<void>;
}

/**
 * Imports a prepared file (Ghost's `perform`): checks every row, then writes every good one in one
 * transaction. Returns what Ghost's answer says: how many rows went in, and each refused row with its error.
 */
export async function performImport(ctx: Ctx, csv: string, options: PerformOptions): Promise<ImportResult> {
  const rows = await parseMembersCsv(csv, DEFAULT_MAPPING, []);
  const tiers = tierFinder(ctx.db);
  const newsletterId = newsletterFinder(ctx.db);
  const now = ctx.clock.now();
  const invalid: InvalidRow[] = [];
  const planned = new Map<string, Planned>();
  let imported = 0;
  for (const [index, row] of rows.entries()) {
    if (index % 1000 === 0) await options.progress?.({ stage: 'checking', rows: rows.length, checked: index });
    const plan = await check(row, tiers, newsletterId, now);
    if (typeof plan === 'string') {
      invalid.push({ ...row, error: plan });
      continue;
    }
    imported++;
    const key = plan.email.toLowerCase();
    const earlier = planned.get(key);
    planned.set(key, earlier ? merge(earlier, plan) : plan);
  }
  await options.progress?.({ stage: 'writing', rows: rows.length, checked: rows.length });
  return ctx.write(async (w) => {
    let importLabel: LabelRow | null = null;
    if (planned.size > 0) {
      const labels = await labelsByName(
        w,
        [...planned.values()].flatMap((plan) => plan.labels),
      );
      const newsletters = (await signupNewsletterIds(w.db)).map((row) => row.id);
      for (const chunk of chunksOf([...planned.values()])) await writeChunk(w, chunk, labels, newsletters);
      importLabel = labels.get(options.importLabel.toLowerCase()) ?? null;
    }
    const result: ImportResult = {
      originalImportSize: options.originalImportSize,
      stats: { imported, invalid },
      import_label: imported > 0 && importLabel ? presentImportLabel(importLabel) : null,
    };
    await options.complete?.(w.db, result);
    return result;
  });
}

/** Every label the file names, found or made once, by lower-cased name (labels match without case). */
async function labelsByName(w: WriteCtx, names: readonly string[]): Promise<Map<string, LabelRow>> {
  const out = new Map<string, LabelRow>();
  for (const name of new Set(names)) {
    if (out.has(name.toLowerCase())) continue;
    const [label] = await resolveLabels(w, [name]);
    if (label) out.set(name.toLowerCase(), label);
  }
  return out;
}

const labelIds = (plan: Planned, labels: Map<string, LabelRow>) => [...new Set(plan.labels.map((name) => labels.get(name.toLowerCase())!.id))];

/** Writes one chunk: new members in a few multi-row statements, existing ones updated one by one. */
async function writeChunk(w: WriteCtx, plans: Planned[], labels: Map<string, LabelRow>, signupNewsletters: string[]): Promise<void> {
  const existing = await w.db
    .selectFrom('members')
    .select(['id', 'email'])
    .where(
      w.engine.text.lower(sql.ref('email')),
      'in',
      plans.map((plan) => plan.email.toLowerCase()),
    )
    .execute();
  const existingIds = new Map(existing.map((row) => [row.email.toLowerCase(), row.id]));
  const fresh: { row: MemberRow; plan: Planned }[] = [];
  for (const plan of plans) {
    const id = existingIds.get(plan.email.toLowerCase());
    if (id) await updateExisting(w, id, plan, labels);
    else fresh.push({ row: newMember(w, plan), plan });
  }
  if (fresh.length === 0) return;
  await w.db
    .insertInto('members')
    .values(fresh.map((item) => item.row))
    .execute();
  const memberLabels = fresh.flatMap(({ row, plan }) =>
    labelIds(plan, labels).map((label_id, sort_order) => ({ id: objectId(), member_id: row.id, label_id, sort_order })),
  );
  await insertInChunks(w.db, 'members_labels', memberLabels);
  const subscriptions = fresh
    .filter(({ plan }) => plan.subscribed)
    .flatMap(({ row, plan }) => (plan.newsletters ?? signupNewsletters).map((newsletter_id) => ({ id: objectId(), member_id: row.id, newsletter_id })));
  await insertInChunks(w.db, 'members_newsletters', subscriptions);
  const comped = fresh.flatMap(({ row, plan }) =>
    plan.tiers.map((tier, sort_order) => ({ id: objectId(), member_id: row.id, product_id: tier.id, sort_order, expiry_at: null })),
  );
  if (comped.length > 0) await w.db.insertInto('members_products').values(comped).execute();
}

/**
 * A complimentary paid tier makes the member comped, as giving one through the API does. Ghost's importer
 * without Stripe links the tier but leaves the status `free` (observed), so its own export then drops the
 * `complimentary_plan` flag; here the import and the export agree.
 */
const compedBy = (tiers: readonly TierRow[]) => tiers.some((tier) => tier.type === 'paid');

function newMember(w: WriteCtx, plan: Planned): MemberRow {
  return newMemberRow(w, {
    email: plan.email,
    status: compedBy(plan.tiers) ? 'comped' : 'free',
    name: plan.name,
    note: plan.note,
    created_at: plan.createdAt,
    updated_at: w.clock.now(),
  });
}

/** Ghost's importer on an address that is already a member: what the row gives is added or replaced, nothing else. */
async function updateExisting(w: WriteCtx, id: string, plan: Planned, labels: Map<string, LabelRow>): Promise<void> {
  const have = await w.db.selectFrom('members_labels').select(['label_id', 'sort_order']).where('member_id', '=', id).execute();
  const held = new Set(have.map((row) => row.label_id));
  let next = have.reduce((max, row) => Math.max(max, row.sort_order + 1), 0);
  const added = labelIds(plan, labels)
    .filter((label_id) => !held.has(label_id))
    .map((label_id) => ({ id: objectId(), member_id: id, label_id, sort_order: next++ }));
  if (added.length > 0) await w.db.insertInto('members_labels').values(added).execute();
  if (!plan.subscribed) await setMemberNewsletters(w, id, []);
  else if (plan.newsletters) await addNewsletters(w, id, plan.newsletters);
  if (plan.tiers.length > 0) await setMemberTiers(w, id, plan.tiers);
  await w.db
    .updateTable('members')
    .set({
      ...(plan.name ? { name: plan.name } : {}),
      ...(plan.note ? { note: plan.note } : {}),
      ...(compedBy(plan.tiers) ? { status: 'comped' as const } : {}),
      updated_at: w.clock.now(),
      updated_by: w.actingUserId,
    })
    .where('id', '=', id)
    .execute();
}

/** The newsletters a file names for a member it already had: added to the ones the member has. */
async function addNewsletters(w: WriteCtx, id: string, newsletters: readonly string[]): Promise<void> {
  const have = new Set(
    (await w.db.selectFrom('members_newsletters').select('newsletter_id').where('member_id', '=', id).execute()).map((row) => row.newsletter_id),
  );
  const added = newsletters.filter((newsletter) => !have.has(newsletter)).map((newsletter_id) => ({ id: objectId(), member_id: id, newsletter_id }));
  if (added.length > 0) await w.db.insertInto('members_newsletters').values(added).execute();
}
