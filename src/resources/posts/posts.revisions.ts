import type { Db } from '../../db/connect.js';
import type { PostMetaRow, PostRevisionRow, PostRow } from '../../db/schema.js';
import { lexicalFromStorage } from '../../content/ghost-url.js';
import { objectId } from '../../db/ids.js';
import type { Clock } from '../../clock.js';
import { insertRevision, latestRevision, trimRevisions } from './posts.queries.js';

/** Ghost keeps the 25 latest revisions and takes a background one at most every ten minutes. */
const MAX_REVISIONS = 25;
const REVISION_INTERVAL_MS = 10 * 60 * 1000;

export interface RevisionSnapshot {
  postId: string;
  lexical: string | null;
  title: string;
  featureImage: string | null;
  featureImageAlt: string | null;
  featureImageCaption: string | null;
  customExcerpt: string | null;
  status: string;
  authorId: string;
  /** `lexical` is the post row's own (no `__GHOST_URL__` in it): the database copies it (insertRevision). */
  lexicalAsPostRow?: boolean;
}

export interface RevisionOptions {
  previousStatus: string | null;
  /** `?save_revision=true`: the editor's explicit save. */
  force: boolean;
  /** A post created in this transaction: it has no revisions to compare with or trim. */
  fresh?: boolean;
}

/**
 * Why a save records a revision, or null (Ghost's PostRevisions rules): the first save; un-publishing;
 * any save while published; otherwise only when title, lexical, feature image or custom excerpt changed
 * since the latest revision, and the editor asked for it or ten minutes have passed.
 */
export function revisionReason(current: RevisionSnapshot, latest: PostRevisionRow | undefined, options: RevisionOptions, nowMs: number): string | null {
  if (!latest) return 'initial_revision';
  if (current.status === 'draft' && options.previousStatus === 'published') return 'unpublished';
  if (current.status === 'published') return 'published';
  const changed =
    latest.lexical !== current.lexical ||
    latest.title !== current.title ||
    latest.feature_image !== current.featureImage ||
    latest.custom_excerpt !== current.customExcerpt;
  if (!changed) return null;
  if (options.force) return 'explicit_save';
  if (nowMs - Number(latest.created_at_ts) > REVISION_INTERVAL_MS) return 'background_save';
  return null;
}

/**
 * Records a revision when the rules call for one and trims the history to the newest 25. Mobiledoc posts
 * have no revisions (Ghost keeps them only for lexical content).
 */
export async function recordRevision(db: Db, current: RevisionSnapshot, options: RevisionOptions, clock: Clock): Promise<void> {
  const latest = options.fresh ? undefined : await latestRevision(db, current.postId);
  const nowMs = clock.epochMs();
  const reason = revisionReason(current, latest, options, nowMs);
  if (!reason) return;
  const createdAtTs = Math.max(nowMs, latest ? Number(latest.created_at_ts) + 1 : 0);
  const revision: PostRevisionRow = {
    id: objectId(),
    post_id: current.postId,
    lexical: current.lexical,
    created_at_ts: createdAtTs,
    created_at: clock.now(),
    author_id: current.authorId,
    title: current.title,
    post_status: current.status,
    reason,
    feature_image: current.featureImage,
    feature_image_alt: current.featureImageAlt,
    feature_image_caption: current.featureImageCaption,
    custom_excerpt: current.customExcerpt,
  };
  await insertRevision(db, revision, { lexicalFromPost: current.lexicalAsPostRow === true });
  if (options.fresh) return;
  await trimRevisions(db, current.postId, MAX_REVISIONS);
}

/**
 * What a revision keeps of a post row and its meta (`authorId`: whose save it is). `row` is the post as this
 * transaction has written it to the database.
 */
export function revisionSnapshot(row: PostRow, meta: Partial<PostMetaRow>, authorId: string, siteUrl: string): RevisionSnapshot {
  const lexical = row.lexical ? lexicalFromStorage(row.lexical, siteUrl) : null;
  return {
    postId: row.id,
    lexical,
    lexicalAsPostRow: lexical !== null && lexical === row.lexical,
    title: row.title,
    featureImage: row.feature_image,
    featureImageAlt: meta.feature_image_alt ?? null,
    featureImageCaption: meta.feature_image_caption ?? null,
    customExcerpt: row.custom_excerpt,
    status: row.status,
    authorId,
  };
}
