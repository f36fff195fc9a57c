import type { Ctx, WriteCtx } from '../../ctx.js';
import type { ReadDb } from '../../db/read-db.js';
import type { LabelRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { checkColumns } from '../../db/column-rules.js';
import { deleteLabelRow, findLabel, findLabelNamed, insertLabelRow, labelSlugTaken, updateLabel } from './labels.queries.js';
import { LABEL_RULES } from './labels.rules.js';
import type { LabelInput } from './labels.schemas.js';

const alreadyExists = () => errors.validation('Label already exists');

function uniqueSlug(db: ReadDb, base: string, exceptId?: string): Promise<string> {
  return generateSlug(base, { kind: 'label', taken: (candidate) => labelSlugTaken(db, candidate, exceptId) });
}

/** The name as the model stores it: trimmed, and not blank. */
function labelName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : raw;
  return checkColumns(LABEL_RULES, { name }).name!;
}

/** A new label (also made when a member names one that does not exist yet). */
export async function insertLabel(ctx: WriteCtx, input: { name: string; slug?: string | null }): Promise<LabelRow> {
  const name = labelName(input.name);
  if (await findLabelNamed(ctx.db, ctx.engine, name)) throw alreadyExists();
  const at = ctx.clock.now();
  const row: LabelRow = {
    id: objectId(),
    name,
    slug: await uniqueSlug(ctx.db, input.slug || name),
    created_at: at,
    created_by: ctx.actingUserId,
    updated_at: at,
    updated_by: ctx.actingUserId,
  };
  await insertLabelRow(ctx.db, row);
  return row;
}

export function addLabel(ctx: Ctx, input: LabelInput & { name: string }): Promise<LabelRow> {
  return ctx.write((w) => insertLabel(w, input));
}

/**
 * Edits a label; `changed` is false when the body matched what was stored (no write, no cache purge). A
 * change is announced as `site.changed`, with Ghost's `X-Cache-Invalidate: /*` (`http/cache-invalidate.ts`).
 */
export async function editLabel(ctx: Ctx, id: string, input: LabelInput): Promise<{ label: LabelRow; changed: boolean }> {
  return ctx.write(async ({ db, engine, clock, actingUserId, events }) => {
    const existing = await findLabel(db, { id });
    if (!existing) throw errors.notFound();
    const next = { ...existing };
    if ('name' in input) next.name = labelName(input.name);
    if (next.name !== existing.name && (await findLabelNamed(db, engine, next.name, id))) throw alreadyExists();
    if ((input.slug && input.slug !== existing.slug) || !next.slug) next.slug = await uniqueSlug(db, input.slug || next.name, id);
    if (next.name === existing.name && next.slug === existing.slug) return { label: existing, changed: false };
    const update = { name: next.name, slug: next.slug, updated_at: clock.now(), updated_by: actingUserId };
    await updateLabel(db, id, update);
    events.record('site.changed', {});
    return { label: { ...next, ...update }, changed: true };
  });
}

/** Deletes a label and takes it off every member. */
export async function deleteLabel(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async ({ db }) => {
    if (!(await findLabel(db, { id }))) throw errors.notFound();
    await deleteLabelRow(db, id);
  });
}
