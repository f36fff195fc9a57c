import type { ReadDb } from '../../db/read-db.js';
import type { TagRow } from '../../db/schema.js';
import type { Ctx, WriteCtx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { htmlToStorage, toStorageUrl } from '../../content/ghost-url.js';
import { absoluteImageUrl } from '../../content/urls.js';
import { deleteTagRow, findTag, insertTagRow, slugTaken, updateTagRow } from './tags.queries.js';
import { TAG_HTML_FIELDS, TAG_URL_FIELDS, TAG_WRITABLE, type TagInput, type TagWritable } from './tags.schemas.js';
import { checkColumns } from '../../db/column-rules.js';
import { TAG_RULES } from './tags.rules.js';
import { recordTagAdded, recordTagDeleted, recordTagEdited } from './tags.events.js';

type TagValues = Partial<Pick<TagRow, TagWritable>>;

/** Body fields as the model stores them: `""` → null, site URLs → `__GHOST_URL__`, relative images made absolute first. */
function valuesOf(input: TagInput, siteUrl: string): TagValues {
  const values: Record<string, unknown> = {};
  for (const key of TAG_WRITABLE) {
    if (!(key in input)) continue;
    let value = input[key];
    if (value === '' && key !== 'name') value = null;
    if (typeof value === 'string') {
      if (key === 'feature_image') value = absoluteImageUrl(value, siteUrl);
      if ((TAG_URL_FIELDS as readonly string[]).includes(key)) {
        value = toStorageUrl(value as string, siteUrl, key === 'canonical_url' ? { ignoreProtocol: false } : {});
      }
      if ((TAG_HTML_FIELDS as readonly string[]).includes(key)) value = htmlToStorage(value as string, siteUrl);
    }
    values[key] = value;
  }
  return values as TagValues;
}

function uniqueSlug(db: ReadDb, base: string, exceptId?: string): Promise<string> {
  return generateSlug(base, { kind: 'tag', taken: (candidate) => slugTaken(db, candidate, exceptId) });
}

/** A new tag row from resolved values (also used when a post names a tag that does not exist yet). */
export async function insertTag(ctx: WriteCtx, values: TagValues): Promise<TagRow> {
  const { db, actingUserId: actorId } = ctx;
  const name = values.name || values.slug || '';
  checkColumns(TAG_RULES, { name });
  const at = ctx.clock.now();
  const row: TagRow = {
    id: objectId(),
    name,
    slug: '',
    description: null,
    feature_image: null,
    parent_id: null,
    visibility: 'public',
    og_image: null,
    og_title: null,
    og_description: null,
    twitter_image: null,
    twitter_title: null,
    twitter_description: null,
    meta_title: null,
    meta_description: null,
    codeinjection_head: null,
    codeinjection_foot: null,
    canonical_url: null,
    accent_color: null,
    created_at: at,
    created_by: actorId,
    updated_at: at,
    updated_by: actorId,
    ...values,
  } as TagRow;
  row.name = name;
  if (row.name.startsWith('#')) row.visibility = 'internal';
  row.slug = await uniqueSlug(db, values.slug || name);
  await insertTagRow(db, row);
  await recordTagAdded(ctx, row);
  return row;
}

export async function addTag(ctx: Ctx, input: TagInput): Promise<TagRow> {
  const values = valuesOf(input, ctx.site.url);
  return ctx.write(async (w) => {
    const row = await insertTag(w, values);
    // The add route answers with `X-Cache-Invalidate: /*`, which Ghost announces as site.changed.
    w.events.record('site.changed', {});
    return row;
  });
}

/** Edits a tag; `changed` is false when the body matched what was stored (no write, no cache purge). */
export async function editTag(ctx: Ctx, id: string, input: TagInput): Promise<{ tag: TagRow; changed: boolean }> {
  const values = valuesOf(input, ctx.site.url);
  return ctx.write(async (w) => {
    const { db: trx, clock, actingUserId } = w;
    const existing = await findTag(trx, { id });
    if (!existing) throw errors.notFound();
    const next: TagRow = { ...existing, ...values };
    if (next.name.startsWith('#')) next.visibility = 'internal';
    if (('slug' in values && values.slug !== existing.slug) || !next.slug) {
      next.slug = await uniqueSlug(trx, next.slug || next.name, id);
    }
    const changedKeys = TAG_WRITABLE.filter((key) => next[key] !== existing[key]);
    if (changedKeys.length === 0) return { tag: existing, changed: false };
    const update: Record<string, unknown> = Object.fromEntries(changedKeys.map((key) => [key, next[key]]));
    Object.assign(update, { updated_at: clock.now(), updated_by: actingUserId });
    await updateTagRow(trx, id, update);
    const tag = { ...next, ...update } as TagRow;
    await recordTagEdited(w, existing, tag);
    w.events.record('site.changed', {});
    return { tag, changed: true };
  });
}

/** Deletes a tag and detaches it from every post. */
export async function deleteTag(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async (w) => {
    const trx = w.db;
    const existing = await findTag(trx, { id });
    if (!existing) throw errors.notFound();
    await recordTagDeleted(w, existing);
    await deleteTagRow(trx, id);
    w.events.record('site.changed', {});
  });
}
