import { randomUUID } from 'node:crypto';
import { isUUID } from '../../db/string-checks.js';
import { objectId } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { BLANK_LEXICAL, mobiledocFromHtml, renderForStorage } from '../posts/posts.formats.js';
import { DUPLICATE, type FileRow, type ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

/** Ghost's `mobiledocLib.blankDocument`: what a post with unreadable mobiledoc gets. */
const BLANK_MOBILEDOC = '{"version":"0.3.1","ghostVersion":"4.0","markups":[],"atoms":[],"cards":[],"sections":[[1,"p",[[0,[],0,""]]]]}';
/** Posts per slice written together (posts first, then what refers to them). */
const SLICE = 200;
const META_COLUMNS = columnsOf('posts_meta').filter((column) => column !== 'id' && column !== 'post_id');

interface Relation {
  table: 'posts_tags' | 'posts_authors' | 'posts_products';
  target: 'tags' | 'users' | 'products';
  key: 'tag_id' | 'author_id' | 'product_id';
}
const RELATIONS: Relation[] = [
  { table: 'posts_tags', target: 'tags', key: 'tag_id' },
  { table: 'posts_authors', target: 'users', key: 'author_id' },
  { table: 'posts_products', target: 'products', key: 'product_id' },
];

/**
 * Posts and pages with their meta, tags, authors and tiers, as Ghost's PostsImporter: a second post with a
 * slug already seen in the file is skipped, a slug taken here gets `-2`; `page: true` of old files becomes
 * `type: page`; `comment_id` keeps the old id so comments stay attached; a post without authors gets the
 * Owner; relations to rows neither in the file nor here are dropped. The html of a post that has it is kept
 * as the file has it (rendered by the site it came from); a post without html is rendered here, a post with
 * html only is converted to mobiledoc as Ghost does.
 */
export async function importPosts(run: ImportRun, importTagId: string | null): Promise<void> {
  const { db, site } = run.w;
  const posts = run.rows('posts');
  if (posts.length === 0) return;
  const slugs = new Set((await db.selectFrom('posts').select('slug').execute()).map((post) => post.slug));
  const metaOf = new Map(run.rows('posts_meta').map((meta) => [String(meta.post_id), meta]));
  const linksOf = RELATIONS.map((relation) => groupLinks(run.rows(relation.table), relation.key));
  const seen = new Set<string>();
  let rows: Record<string, unknown>[] = [];
  let metas: Record<string, unknown>[] = [];
  let links: Record<Relation['table'], Record<string, unknown>[]> = { posts_tags: [], posts_authors: [], posts_products: [] };
  // Written a slice at a time: a large file's posts are not held twice (as read and as rows to insert).
  const flush = async () => {
    await run.insert('posts', rows);
    await run.insert('posts_meta', metas);
    for (const relation of RELATIONS) await run.insert(relation.table, links[relation.table]);
    rows = [];
    metas = [];
    links = { posts_tags: [], posts_authors: [], posts_products: [] };
  };

  for (const post of posts) {
    const fileSlug = typeof post.slug === 'string' ? post.slug : '';
    if (fileSlug && seen.has(fileSlug)) {
      run.problem(DUPLICATE, 'Post', { post });
      continue;
    }
    seen.add(fileSlug);
    const id = objectId();
    run.map('posts', post.id, id);
    const slug = await generateSlug(fileSlug || String(post.title ?? ''), { kind: 'post', taken: async (candidate) => slugs.has(candidate) });
    slugs.add(slug);
    const type = typeof post.type === 'string' && post.type ? post.type : post.page ? 'page' : 'post';
    const status = typeof post.status === 'string' ? post.status : 'draft';
    rows.push(
      run.values(post, columnsOf('posts'), 'Post', {
        id,
        slug,
        type,
        uuid: typeof post.uuid === 'string' && isUUID(post.uuid) ? post.uuid : randomUUID(),
        comment_id: typeof post.comment_id === 'string' && post.comment_id ? post.comment_id : String(post.amp ?? post.id ?? id),
        ...(await content(post, site.url)),
        email_recipient_filter: emailRecipientFilter(post),
        newsletter_id: run.idOf('newsletters', post.newsletter_id),
        created_at: run.dateOr(post.created_at),
        created_by: run.userOf(post.created_by),
        updated_by: post.updated_by ? run.userOf(post.updated_by) : null,
        published_by: post.published_by ? run.userOf(post.published_by) : status === 'draft' ? null : run.userOf(null),
      }),
    );
    // Files before Ghost 3 keep the meta columns on the post itself.
    const meta = metaOf.get(String(post.id)) ?? post;
    if (META_COLUMNS.some((column) => meta[column] !== undefined && meta[column] !== null && meta[column] !== false)) {
      metas.push(run.values(meta, META_COLUMNS, 'Post', { id: objectId(), post_id: id }));
    }
    RELATIONS.forEach((relation, i) => {
      const targets = (linksOf[i]!.get(String(post.id)) ?? []).map((fileId) => run.idOf(relation.target, fileId)).filter((t) => t !== null);
      if (relation.table === 'posts_authors' && targets.length === 0) targets.push(run.userOf(null));
      if (relation.table === 'posts_tags' && importTagId) targets.push(importTagId);
      [...new Set(targets)].forEach((target, sort_order) => links[relation.table].push({ id: objectId(), post_id: id, [relation.key]: target, sort_order }));
    });
    if (rows.length >= SLICE) await flush();
  }
  await flush();
}

/** The file's links of one relation, per post id in the file, in their `sort_order`. */
function groupLinks(rows: FileRow[], key: string): Map<string, unknown[]> {
  const sorted = [...rows].sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
  const byPost = new Map<string, unknown[]>();
  for (const row of sorted) {
    const post = String(row.post_id);
    let list = byPost.get(post);
    if (!list) byPost.set(post, (list = []));
    list.push(row[key]);
  }
  return byPost;
}

/** Ghost's `send_email_when_published` of old files becomes the recipient filter. */
function emailRecipientFilter(post: FileRow): string {
  if (typeof post.email_recipient_filter === 'string') return post.email_recipient_filter;
  if (post.send_email_when_published) return post.visibility === 'paid' ? 'status:-free' : 'all';
  return 'none';
}

type Content = { mobiledoc: string | null; lexical: string | null; html: string | null; plaintext: string | null };

async function content(post: FileRow, siteUrl: string): Promise<Content> {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const lexical = text(post.lexical);
  const html = text(post.html);
  let mobiledoc = lexical === null ? text(post.mobiledoc) : null;
  if (mobiledoc !== null) mobiledoc = readableMobiledoc(mobiledoc);
  if ((lexical !== null || mobiledoc !== null) && html !== null) return { lexical, mobiledoc, html, plaintext: text(post.plaintext) };
  if (lexical === null && mobiledoc === null) {
    if (html === null) return { lexical: BLANK_LEXICAL, mobiledoc: null, html: null, plaintext: null };
    return (await renderForStorage({ lexical: null, mobiledoc: await mobiledocFromHtml(fromStorageUrl(html, siteUrl)) }, siteUrl, null)).stored;
  }
  return (
    await renderForStorage({ lexical: lexical && fromStorageUrl(lexical, siteUrl), mobiledoc: mobiledoc && fromStorageUrl(mobiledoc, siteUrl) }, siteUrl, null)
  ).stored;
}

/** Ghost's fixes of old mobiledoc: unreadable documents become blank, old card names are renamed. */
function readableMobiledoc(source: string): string {
  let doc: { cards?: unknown; ghostVersion?: string };
  try {
    doc = JSON.parse(source) as typeof doc;
  } catch {
    return BLANK_MOBILEDOC;
  }
  if (!doc || !Array.isArray(doc.cards)) return BLANK_MOBILEDOC;
  doc.ghostVersion ??= '3.0';
  for (const card of doc.cards as [string, Record<string, unknown>][]) {
    if (!Array.isArray(card)) continue;
    if (card[0] === 'card-markdown') card[0] = 'markdown';
    if (card[0] === 'image' && card[1]?.imageStyle) {
      card[1].cardWidth = card[1].imageStyle;
      delete card[1].imageStyle;
    }
  }
  return JSON.stringify(doc);
}
