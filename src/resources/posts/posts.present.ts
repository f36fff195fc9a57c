import type { PostRevisionRow, RoleRow, TagRow, UserRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { presentAdminTag, presentContentTag } from '../tags/tags.present.js';
import { presentContentAuthor, presentPostAuthor } from '../authors/authors.present.js';
import { presentAdminUser } from '../users/users.present.js';
import { fromStorageUrl, htmlFromStorage, lexicalFromStorage, mobiledocFromStorage } from '../../content/ghost-url.js';
import { tagOutboundLinks } from '../../content/outbound-links.js';
import { excerptOf, readingTime } from '../../content/text.js';
import { authorUrl, postUrl, tagUrl } from '../../content/urls.js';
import { zonedIso } from './posts.dates.js';
import type { PostRecord } from './posts.queries.js';
import type { Format } from './posts.schemas.js';
import { gateContent } from './posts.gating.js';
import { memberCanRead } from './posts.member-gating.js';
import type { MemberAccess } from '../../ctx.js';
import { shownVisibility } from './posts.model.js';
import { tiersForPost, type PostTiers } from './posts.tiers.js';
import { presentEmail, type PostMailing } from './posts.email.js';
import { presentAdminNewsletter } from '../newsletters/newsletters.present.js';

/** Everything a presenter needs besides the record: looked up once per response, never per post. */
export interface PresentContext {
  siteUrl: string;
  formats: ReadonlySet<Format>;
  /** Relations and counts in the order the request named them. */
  include: readonly string[];
  publishedTags: ReadonlySet<string>;
  publishedAuthors: ReadonlySet<string>;
  roles?: ReadonlyMap<string, RoleRow[]>;
  /** Loaded when `tiers` is included. */
  tiers?: PostTiers;
  /** Loaded when `email` or `newsletter` is included. */
  mailing?: PostMailing;
}

export interface ContentPresentContext extends PresentContext {
  timezone: string;
  /** `outbound_link_tagging`: external links get `?ref=<site host>`. */
  tagLinks: boolean;
  commentsEnabled: boolean;
  /** The signed-in member (Members API session or identity token): access and gated blocks are theirs. */
  member?: MemberAccess | null;
  /** Each `tiers` post's tier ids, loaded when a member asks. */
  memberTiers?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Outbound link tagging parses the html: the same stored html is tagged once and remembered (keyed by the
 * html itself, so an edit can never be served stale). Bounded, oldest first out.
 */
const taggedHtml = new Map<string, string>();
const TAGGED_HTML_ENTRIES = 200;

function withOutboundRefs(html: string, siteUrl: string): string {
  if (!html.includes('<a')) return html;
  const key = `${siteUrl}\n${html}`;
  let tagged = taggedHtml.get(key);
  if (tagged === undefined) {
    tagged = tagOutboundLinks(html, siteUrl);
    if (taggedHtml.size >= TAGGED_HTML_ENTRIES) taggedHtml.delete(taggedHtml.keys().next().value!);
    taggedHtml.set(key, tagged);
  }
  return tagged;
}

const abs = (value: string | null, siteUrl: string) => (value ? fromStorageUrl(value, siteUrl) : value);
const absHtml = (value: string | null, siteUrl: string) => (value ? htmlFromStorage(value, siteUrl) : value);

/**
 * The SEO fields of posts_meta, in SEO_FIELDS' order (content/seo-fields.ts), each stored by name: stored under a computed key, they took the
 * presented post past V8's dozen properties added by key, and it became a dictionary (every post of every answer:
 * its keys sorted and each member a hash lookup when serialised, its map migrated on each store).
 */
function addSeoFields(out: Record<string, unknown>, meta: PostRecord['meta'], siteUrl: string): void {
  out.og_image = abs(meta?.og_image ?? null, siteUrl);
  out.og_title = meta?.og_title || null;
  out.og_description = meta?.og_description || null;
  out.twitter_image = abs(meta?.twitter_image ?? null, siteUrl);
  out.twitter_title = meta?.twitter_title || null;
  out.twitter_description = meta?.twitter_description || null;
  out.meta_title = meta?.meta_title || null;
  out.meta_description = meta?.meta_description || null;
}

function tagsFor(record: PostRecord, ctx: PresentContext, admin: boolean) {
  return record.tags!.map((tag: TagRow) => {
    const url = tagUrl(ctx.siteUrl, tag.slug, tag.visibility === 'public' && ctx.publishedTags.has(tag.id));
    return admin ? presentAdminTag(tag, ctx.siteUrl, { url }) : contentShared(ctx, 'tag', tag.id, () => presentContentTag(tag, ctx.siteUrl, { url }));
  });
}

function authorsFor(record: PostRecord, ctx: PresentContext, admin: boolean) {
  return record.authors!.map((user: UserRow) => {
    const url = authorUrl(ctx.siteUrl, user.slug, ctx.publishedAuthors.has(user.id));
    if (!admin) return contentShared(ctx, 'author', user.id, () => presentContentAuthor(user, { url }));
    return presentPostAuthor(user, url, ctx.include.includes('authors.roles') ? (ctx.roles?.get(user.id) ?? []) : undefined);
  });
}

/**
 * A Content API answer shows a tag or author the same on every post of it (its url, too, is the answer's):
 * presented once per answer and the one object embedded wherever it appears (nothing changes it after, and the
 * reply serializer writes a repeated object once).
 */
const sharedByContext = new WeakMap<PresentContext, Map<string, Record<string, unknown>>>();

function contentShared(ctx: PresentContext, kind: 'tag' | 'author', id: string, present: () => Record<string, unknown>) {
  let shared = sharedByContext.get(ctx);
  if (!shared) sharedByContext.set(ctx, (shared = new Map()));
  const key = `${kind} ${id}`;
  let out = shared.get(key);
  if (!out) shared.set(key, (out = present()));
  return out;
}

function revisionsFor(revisions: PostRevisionRow[], ctx: PresentContext, authors: ReadonlyMap<string, UserRow>) {
  const withAuthor = ctx.include.includes('post_revisions.author');
  return revisions.map((revision) => {
    const author = revision.author_id ? authors.get(revision.author_id) : undefined;
    return {
      id: revision.id,
      post_id: revision.post_id,
      lexical: revision.lexical,
      created_at_ts: revision.created_at_ts,
      created_at: isoDate(revision.created_at),
      title: revision.title,
      post_status: revision.post_status,
      reason: revision.reason,
      feature_image: revision.feature_image,
      feature_image_alt: revision.feature_image_alt,
      feature_image_caption: revision.feature_image_caption,
      custom_excerpt: revision.custom_excerpt,
      ...(withAuthor
        ? { author: author ? presentAdminUser(author, { url: authorUrl(ctx.siteUrl, author.slug, ctx.publishedAuthors.has(author.id)) }) : null }
        : {}),
    };
  });
}

/** The columns both APIs show as stored, in Ghost's order after the dates (URLs and code injection made absolute). */
function pageColumns(row: PostRecord['row'], siteUrl: string) {
  return {
    custom_excerpt: row.custom_excerpt,
    codeinjection_head: absHtml(row.codeinjection_head, siteUrl),
    codeinjection_foot: absHtml(row.codeinjection_foot, siteUrl),
    custom_template: row.custom_template,
    canonical_url: abs(row.canonical_url, siteUrl),
  };
}

/** Ghost's primary author and tag, when their relation is shown: the first author, the first tag if it is public. */
function addPrimaries(out: Record<string, unknown>, record: PostRecord): void {
  if (out.authors) out.primary_author = (out.authors as unknown[])[0] ?? null;
  if (out.tags) out.primary_tag = record.tags![0]?.visibility === 'public' ? (out.tags as unknown[])[0] : null;
}

/** Counts Ghost attaches to admin posts; with no members or e-mail analytics yet, they are all zero. */
function countsFor(include: readonly string[]): Record<string, number> | null {
  const keys = include.filter((name) => name.startsWith('count.')).map((name) => name.slice('count.'.length));
  if (keys.length === 0) return null;
  const count: Record<string, number> = Object.fromEntries(keys.map((key) => [key, 0]));
  count.positive_feedback = 0;
  count.negative_feedback = 0;
  return count;
}

/**
 * The Admin API post or page, in Ghost's key order. Formats only when `formats` holds them: the API routes
 * always add `lexical`, webhook payloads never carry it (as in Ghost); relations only when included.
 */
export function presentAdminPost(record: PostRecord, ctx: PresentContext, revisionAuthors: ReadonlyMap<string, UserRow> = new Map()) {
  const { row, meta } = record;
  const isPost = row.type === 'post';
  const html = absHtml(row.html, ctx.siteUrl);
  const plaintext = absHtml(row.plaintext, ctx.siteUrl);
  const featureImage = abs(row.feature_image, ctx.siteUrl);
  const out: Record<string, unknown> = { id: row.id, uuid: row.uuid, title: row.title, slug: row.slug };
  if (ctx.formats.has('mobiledoc')) out.mobiledoc = row.mobiledoc ? mobiledocFromStorage(row.mobiledoc, ctx.siteUrl) : null;
  if (ctx.formats.has('lexical')) out.lexical = row.lexical ? lexicalFromStorage(row.lexical, ctx.siteUrl) : null;
  if (ctx.formats.has('html')) out.html = html;
  out.comment_id = row.comment_id;
  if (ctx.formats.has('plaintext') && plaintext) out.plaintext = plaintext;
  Object.assign(out, {
    feature_image: featureImage,
    featured: row.featured,
    status: row.status,
    visibility: shownVisibility(row.visibility),
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
    published_at: isoDate(row.published_at),
    ...pageColumns(row, ctx.siteUrl),
  });
  if (!isPost) out.show_title_and_feature_image = row.show_title_and_feature_image;
  for (const name of ctx.include) {
    if (name === 'tags' && record.tags) out.tags = tagsFor(record, ctx, true);
    if (name === 'authors' && record.authors) out.authors = authorsFor(record, ctx, true);
    if (name === 'post_revisions' && record.revisions) out.post_revisions = revisionsFor(record.revisions, ctx, revisionAuthors);
    if (name === 'tiers' && ctx.tiers) out.tiers = tiersForPost(row.visibility, row.id, ctx.tiers);
  }
  // Ghost embeds an email or newsletter the post has after the other relations, and a missing one (null)
  // at the very end (observed key order).
  const email = isPost && ctx.include.includes('email') ? ctx.mailing?.emails.get(row.id) : undefined;
  const newsletter = isPost && ctx.include.includes('newsletter') && row.newsletter_id ? ctx.mailing?.newsletters.get(row.newsletter_id) : undefined;
  if (email) out.email = presentEmail(email);
  if (newsletter) out.newsletter = presentAdminNewsletter(newsletter, ctx.siteUrl);
  const count = countsFor(ctx.include);
  if (count) out.count = count;
  addPrimaries(out, record);
  if (isPost) out.email_segment = row.email_recipient_filter;
  out.url = postUrl(ctx.siteUrl, { slug: row.slug, uuid: row.uuid, status: row.status, type: row.type, email_only: meta?.email_only });
  out.excerpt = excerptOf({ custom_excerpt: row.custom_excerpt, plaintext });
  if (html) out.reading_time = row.reading_time ?? readingTime({ html, feature_image: featureImage });
  addSeoFields(out, meta, ctx.siteUrl);
  if (isPost) out.email_subject = meta?.email_subject || null;
  out.frontmatter = meta?.frontmatter || null;
  out.feature_image_alt = meta?.feature_image_alt || null;
  out.feature_image_caption = meta?.feature_image_caption || null;
  if (isPost) {
    out.email_only = meta?.email_only ?? false;
    if (ctx.include.includes('email') && !email) out.email = null;
    if (ctx.include.includes('newsletter') && !newsletter) out.newsletter = null;
    if (ctx.include.includes('sentiment')) out.sentiment = 0;
  }
  return out;
}

/** The Content API post or page: published content only, html by default, member gating applied. */
export function presentContentPost(record: PostRecord, ctx: ContentPresentContext) {
  const { row, meta } = record;
  const isPost = row.type === 'post';
  const featureImage = abs(row.feature_image, ctx.siteUrl);
  const html = absHtml(row.html, ctx.siteUrl);
  const plaintext = absHtml(row.plaintext, ctx.siteUrl);
  const member = ctx.member ?? null;
  const access = member ? memberCanRead(row.visibility, member, ctx.memberTiers?.get(row.id) ?? []) : row.visibility === 'public';

  const out: Record<string, unknown> = { id: row.id, uuid: row.uuid, title: row.title, slug: row.slug };
  if (ctx.formats.has('html')) out.html = html;
  out.comment_id = row.comment_id;
  // Plaintext only when asked for and non-empty (gating may still add it, as Ghost's does).
  if (ctx.formats.has('plaintext') && plaintext) out.plaintext = plaintext;
  Object.assign(out, {
    feature_image: featureImage,
    featured: row.featured,
    visibility: shownVisibility(row.visibility),
    created_at: zonedIso(row.created_at, ctx.timezone),
    updated_at: zonedIso(row.updated_at, ctx.timezone),
    published_at: zonedIso(row.published_at, ctx.timezone),
    ...pageColumns(row, ctx.siteUrl),
  });
  if (!isPost) out.show_title_and_feature_image = row.show_title_and_feature_image;
  for (const name of ctx.include) {
    if (name === 'tags' && record.tags) out.tags = tagsFor(record, ctx, false);
    if (name === 'authors' && record.authors) out.authors = authorsFor(record, ctx, false);
    if (name === 'tiers' && ctx.tiers) out.tiers = tiersForPost(row.visibility, row.id, ctx.tiers);
  }
  addPrimaries(out, record);
  out.url = postUrl(ctx.siteUrl, { slug: row.slug, uuid: row.uuid, status: row.status, type: row.type, email_only: meta?.email_only });
  out.excerpt = excerptOf({ custom_excerpt: row.custom_excerpt, plaintext });
  // Reading time is worked out before gating, from the whole post.
  if (html) out.reading_time = row.reading_time ?? readingTime({ html, feature_image: featureImage });
  out.access = access;
  gateContent(out, access, row.custom_excerpt, member);
  if (typeof out.html === 'string' && out.html && ctx.tagLinks) out.html = withOutboundRefs(out.html, ctx.siteUrl);
  out.comments = access && ctx.commentsEnabled;
  addSeoFields(out, meta, ctx.siteUrl);
  if (isPost) out.email_subject = meta?.email_subject || null;
  out.frontmatter = meta?.frontmatter || null;
  out.feature_image_alt = meta?.feature_image_alt || null;
  out.feature_image_caption = meta?.feature_image_caption || null;
  if (ctx.include.includes('sentiment') && isPost) out.sentiment = 0;
  return out;
}
