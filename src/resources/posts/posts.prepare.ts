import type { PostRow } from '../../db/schema.js';
import type { Ctx, WriteCtx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { statementLimit } from '../../db/statement-limit.js';
import { htmlToStorage, lexicalFromStorage, lexicalStoredAsIs, mobiledocFromStorage, toStorageUrl } from '../../content/ghost-url.js';
import { readingTimeOffThread } from '../../content/off-thread.js';
import { postChanges, type PostChanges } from './posts.input.js';
import {
  contentFromHtml,
  lexicalFromHtml,
  mobiledocFromHtml,
  renderForStorage,
  renderedOrRefused,
  renderedMobiledoc,
  resolveSources,
  sourcesForStorage,
  type ContentState,
  type RenderedContent,
  type StoredContent,
} from './posts.formats.js';
import { sameTime, storedVisibility } from './posts.model.js';
import { applyDefaultVisibility } from './posts.tiers.js';
import { checkEmailSegment } from './posts.email.js';
import type { PostInput, PostType } from './posts.schemas.js';

/**
 * Content preparation for add and edit: the body turned into column changes, site URLs into their stored
 * form, and the content rendered (before the transaction: a large post renders for seconds, and an open
 * transaction would hold every other write, and on SQLite every query, back that long).
 */
export interface WriteOptions {
  source: 'html' | null;
  forceRerender?: boolean;
  saveRevision?: boolean;
  convertToLexical?: boolean;
  newsletter?: string;
  emailSegment?: string;
}

const URL_COLUMNS = ['feature_image'] as const;
const HTML_COLUMNS = ['custom_excerpt', 'codeinjection_head', 'codeinjection_foot'] as const;
const META_URL_COLUMNS = ['og_image', 'twitter_image'] as const;

/** Stored next to the html so reads never count words; counted on the worker pool. */
const readingTimeOf = async (row: Pick<PostRow, 'html' | 'feature_image'>) => (row.html ? await readingTimeOffThread(row) : null);

/** Site URLs in writable columns are stored as `__GHOST_URL__/…`. */
function toStorage(changes: PostChanges, siteUrl: string): void {
  const post = changes.post as Record<string, unknown>;
  const meta = changes.meta as Record<string, unknown>;
  for (const key of URL_COLUMNS) if (typeof post[key] === 'string') post[key] = toStorageUrl(post[key] as string, siteUrl);
  // canonical_url keeps its protocol: an https canonical of an http site stays absolute.
  if (typeof post.canonical_url === 'string') post.canonical_url = toStorageUrl(post.canonical_url, siteUrl, { ignoreProtocol: false });
  for (const key of HTML_COLUMNS) if (typeof post[key] === 'string') post[key] = htmlToStorage(post[key] as string, siteUrl);
  for (const key of META_URL_COLUMNS) if (typeof meta[key] === 'string') meta[key] = toStorageUrl(meta[key] as string, siteUrl);
  if (typeof post.visibility === 'string') post.visibility = storedVisibility(post.visibility);
}

/** Steps shared by add and edit before the transaction: input, e-mail segment, html conversion. */
export async function prepareChanges(ctx: Ctx, type: PostType, input: PostInput, mode: 'add' | 'edit', options: WriteOptions) {
  const changes = postChanges(type, input);
  if (mode === 'add') await applyDefaultVisibility(ctx.db, changes);
  // Ghost's posts service checks the segment before anything else, only when both options are given.
  if (mode === 'edit' && options.newsletter && options.emailSegment && options.emailSegment !== 'all') checkEmailSegment(ctx.engine, options.emailSegment);
  if (options.source === 'html' && changes.html) {
    const html = changes.html;
    let lexical: string;
    if (mode === 'add') {
      // A new post needs its html no more once converted (only an edit of a mobiledoc post converts it twice).
      delete changes.html;
      const converted = await contentFromHtml(html, ctx.site.url, !!changes.post.feature_image);
      lexical = converted.lexical;
      changes.renderedFromHtml = converted.rendered;
    } else {
      lexical = await lexicalFromHtml(html);
    }
    changes.post.lexical = lexical;
    changes.post.mobiledoc = null;
    // For newContent's render, which a large new post, rendered already, does not need: its tens of MB are not
    // scanned on this thread then (0.09 s for 14 MB, and the card library loaded here for the pattern: issue 29).
    if (!changes.renderedFromHtml && lexicalStoredAsIs(lexical)) changes.lexicalStoredAsIs = lexical;
  }
  toStorage(changes, ctx.site.url);
  return changes;
}

/**
 * Refuses a post the database cannot take in one statement (MySQL/MariaDB's `max_allowed_packet`) before
 * sending it: the server would drop the connection and the request would end in an opaque 500. The driver
 * escapes values into the statement (quotes in lexical JSON double up), hence the allowance.
 */
export async function checkStatementSize(w: WriteCtx, row: Partial<Pick<PostRow, 'lexical' | 'mobiledoc' | 'html' | 'plaintext'>>): Promise<void> {
  const limit = await statementLimit(w.db, w.engine);
  if (limit === null) return;
  const bytes = [row.lexical, row.mobiledoc, row.html, row.plaintext].reduce((sum, text) => sum + Buffer.byteLength(text ?? ''), 0);
  if (bytes * 1.25 + 64 * 1024 <= limit) return;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  throw errors.tooLarge({
    context: `The post's content is ${mb(bytes)} once rendered; the database takes at most ${mb(limit)} in one statement (max_allowed_packet).`,
  });
}

/** The content columns of a write, rendered, with the reading time of the html they hold. */
export type { RenderedContent };

export async function newContent(ctx: Ctx, changes: PostChanges): Promise<RenderedContent> {
  if (changes.renderedFromHtml) return renderedOrRefused(changes.renderedFromHtml);
  const p = changes.post;
  const sources = resolveSources(contentFromStorage(p.mobiledoc ?? null, p.lexical ?? null, ctx.site.url), null);
  return renderForStorage(sources, ctx.site.url, !!p.feature_image, storedAsIs(sources, changes));
}

/** Whether the lexical to render is the converted one known to be its own stored form. */
const storedAsIs = (sources: ContentState, changes: PostChanges) => sources.lexical !== null && sources.lexical === changes.lexicalStoredAsIs;

/** Stored source columns back in the absolute form the renderers read. */
function contentFromStorage(mobiledoc: string | null, lexical: string | null, siteUrl: string): ContentState {
  return {
    mobiledoc: mobiledoc ? mobiledocFromStorage(mobiledoc, siteUrl) : null,
    lexical: lexical ? lexicalFromStorage(lexical, siteUrl) : null,
  };
}

export const equalValue = (a: unknown, b: unknown) => (a instanceof Date || b instanceof Date ? sameTime(a as Date | null, b as Date | null) : a === b);

/**
 * The content columns an edit leads to: `stored` is null when the source did not change (nothing is
 * rendered again). `basedOn` is the stored row it was worked out from; `error` a refusal to raise when the
 * edit reaches the point where Ghost renders (after the permission and not-found checks).
 */
export interface EditedContent {
  basedOn: Pick<PostRow, 'mobiledoc' | 'lexical' | 'html' | 'feature_image' | 'reading_time'>;
  stored: StoredContent | null;
  readingTime: number | null;
  error?: unknown;
}

export async function editedContent(ctx: Ctx, existing: PostRow, changes: PostChanges, options: WriteOptions): Promise<EditedContent> {
  const siteUrl = ctx.site.url;
  const p = changes.post;
  const basedOn = {
    mobiledoc: existing.mobiledoc,
    lexical: existing.lexical,
    html: existing.html,
    feature_image: existing.feature_image,
    reading_time: existing.reading_time,
  };
  try {
    const previous = contentFromStorage(existing.mobiledoc, existing.lexical, siteUrl);
    const requested = contentFromStorage(
      'mobiledoc' in p ? (p.mobiledoc ?? null) : existing.mobiledoc,
      'lexical' in p ? (p.lexical ?? null) : existing.lexical,
      siteUrl,
    );
    // `?source=html` on a mobiledoc post keeps it mobiledoc, as Ghost does (the html converted to mobiledoc).
    if (options.source === 'html' && changes.html && existing.mobiledoc) requested.mobiledoc = await mobiledocFromHtml(changes.html);
    let sources = resolveSources(requested, previous);
    if (options.convertToLexical && sources.mobiledoc) {
      // Without Ghost's kg-converters the conversion goes through the rendered html.
      sources = { mobiledoc: null, lexical: await lexicalFromHtml(await renderedMobiledoc(sources.mobiledoc, siteUrl)) };
    }
    const storedSources = sourcesForStorage(sources, siteUrl);
    const rerender = storedSources.mobiledoc !== existing.mobiledoc || storedSources.lexical !== existing.lexical || !!options.forceRerender;
    const featureImage = 'feature_image' in p ? (p.feature_image ?? null) : existing.feature_image;
    const rendered = rerender ? await renderForStorage(sources, siteUrl, !!featureImage, storedAsIs(sources, changes)) : null;
    if (rendered) return { basedOn, stored: rendered.stored, readingTime: rendered.readingTime };
    // Reading time depends on the html and on whether there is a feature image; otherwise the stored one holds.
    const same = !featureImage === !existing.feature_image && existing.reading_time !== null;
    const readingTime = same ? existing.reading_time : await readingTimeOf({ html: existing.html, feature_image: featureImage });
    return { basedOn, stored: null, readingTime };
  } catch (error) {
    return { basedOn, stored: null, readingTime: null, error };
  }
}

/** Whether content worked out before the transaction still fits the row the transaction locked. */
export const stillFits = (content: EditedContent, existing: PostRow) =>
  (Object.keys(content.basedOn) as (keyof EditedContent['basedOn'])[]).every((key) => equalValue(content.basedOn[key], existing[key]));
