import type { ReadDb } from '../../db/read-db.js';
import type { PostMetaRow, PostRow } from '../../db/schema.js';
import type { WriteCtx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import { isoDate } from '../../content/dates.js';
import { generateSlug } from '../../content/slugs.js';
import type { PostChanges } from './posts.input.js';
import { cleanTitle } from './posts.model.js';
import { postSlugTaken } from './posts.queries.js';
import { postHasEmail } from '../emails/emails.queries.js';
import { transition } from './posts.transition.js';
import { equalValue, type EditedContent, type RenderedContent } from './posts.prepare.js';
import type { PostType } from './posts.schemas.js';

/** Row changes: the posts row an add or edit stores, worked out from the prepared changes. */

/** Changes that do not count as someone else's edit (bookshelf-collision's ignore list). */
const NOT_COLLIDING = new Set(['created_at', 'updated_at', 'id', 'published_by', 'updated_by', 'html', 'plaintext', 'reading_time']);

export function uniqueSlug(db: ReadDb, base: string, exceptId?: string): Promise<string> {
  return generateSlug(base, { kind: 'post', taken: (candidate) => postSlugTaken(db, candidate, exceptId) });
}

export async function buildNewRow(ctx: WriteCtx, type: PostType, changes: PostChanges, { stored, readingTime }: RenderedContent): Promise<PostRow> {
  const { db, actingUserId: userId } = ctx;
  const at = ctx.clock.now();
  const p = changes.post;
  const requested = { status: p.status ?? 'draft', published_at: p.published_at ?? null };
  const status = transition(null, requested, { at, userId, emailOnly: changes.meta.email_only ?? false });
  const title = cleanTitle(p.title);
  const id = objectId();
  return {
    id,
    uuid: uuid(),
    title,
    slug: await uniqueSlug(db, p.slug || title),
    ...stored,
    comment_id: id,
    feature_image: p.feature_image ?? null,
    featured: p.featured ?? false,
    type,
    status: status.status,
    locale: p.locale ?? null,
    visibility: p.visibility ?? 'public',
    email_recipient_filter: 'all',
    created_at: at,
    created_by: userId,
    updated_at: at,
    updated_by: userId,
    published_at: status.published_at,
    published_by: status.published_by,
    custom_excerpt: p.custom_excerpt ?? null,
    codeinjection_head: p.codeinjection_head ?? null,
    codeinjection_foot: p.codeinjection_foot ?? null,
    custom_template: p.custom_template ?? null,
    canonical_url: p.canonical_url ?? null,
    newsletter_id: null,
    show_title_and_feature_image: p.show_title_and_feature_image ?? true,
    reading_time: readingTime,
  };
}

export async function buildEditedRow(
  ctx: WriteCtx,
  existing: PostRow,
  existingMeta: PostMetaRow | null,
  changes: PostChanges,
  content: EditedContent,
): Promise<PostRow> {
  const { db } = ctx;
  const p = changes.post;
  const next: PostRow = { ...existing };
  for (const key of Object.keys(p) as (keyof typeof p)[]) (next as unknown as Record<string, unknown>)[key] = p[key];

  if (content.error !== undefined) throw content.error;
  if (content.stored) Object.assign(next, content.stored);
  next.reading_time = content.readingTime;

  const emailOnly = changes.meta.email_only ?? existingMeta?.email_only ?? false;
  const moved = transition(existing, next, { at: ctx.clock.now(), userId: ctx.actingUserId, emailOnly });
  if ('title' in p) next.title = cleanTitle(p.title);
  next.status = moved.status;
  next.published_at = moved.published_at;
  next.published_by = moved.published_by;
  if (moved.leavesPublication && !(await postHasEmail(db, existing.id))) {
    next.email_recipient_filter = 'all';
    next.newsletter_id = null;
  }
  if ('slug' in p && (p.slug !== existing.slug || !p.slug)) next.slug = await uniqueSlug(db, p.slug || next.title, existing.id);
  return next;
}

export const changedColumnsOf = (next: PostRow, existing: PostRow) =>
  (Object.keys(next) as (keyof PostRow)[]).filter((key) => !equalValue(next[key], existing[key]));

/** Ghost's collision check: the client saved over a row someone else changed since it read `updated_at`. */
export function checkCollision(changes: PostChanges, existing: PostRow, changed: { columns: (keyof PostRow)[]; tags: boolean; authors: boolean }): void {
  const changedFields = [
    ...changed.columns.filter((key) => !NOT_COLLIDING.has(key)),
    ...(changed.tags ? ['tags'] : []),
    ...(changed.authors ? ['authors'] : []),
  ];
  if (changedFields.length > 0 && changes.updatedAt && new Date(changes.updatedAt).getTime() !== existing.updated_at?.getTime()) {
    throw errors.collision({
      message: 'Saving failed! Someone else is editing this post.',
      code: 'UPDATE_COLLISION',
      details: { changedFields, clientUpdatedAt: changes.updatedAt, serverUpdatedAt: isoDate(existing.updated_at) },
    });
  }
}
