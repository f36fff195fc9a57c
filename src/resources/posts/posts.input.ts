import type { PostMetaRow, PostRow } from '../../db/schema.js';
import { SEO_FIELDS } from '../../content/seo-fields.js';
import type { RenderRefusal, RenderedContent } from '../../content/stored-content.js';
import type { PostInput, PostType } from './posts.schemas.js';

/** posts columns a client may write (everything else is derived or read-only). */
export const WRITABLE_POST_FIELDS = [
  'title',
  'slug',
  'mobiledoc',
  'lexical',
  'feature_image',
  'featured',
  'status',
  'locale',
  'visibility',
  'published_at',
  'custom_excerpt',
  'codeinjection_head',
  'codeinjection_foot',
  'custom_template',
  'canonical_url',
  'show_title_and_feature_image',
] as const;

/** posts_meta columns a client may write; `frontmatter` is not among them in Ghost's schema. */
export const META_FIELDS = [...SEO_FIELDS, 'email_subject', 'feature_image_alt', 'feature_image_caption', 'email_only'] as const;

type PostField = (typeof WRITABLE_POST_FIELDS)[number];
type MetaField = (typeof META_FIELDS)[number];

export interface TagRef {
  id?: string;
  name?: string;
  slug?: string | null;
}

export interface AuthorRef {
  id?: string;
  slug?: string;
  email?: string;
}

/** A write request reduced to what the model stores, each part present only when the body had it. */
export interface PostChanges {
  post: Partial<Pick<PostRow, PostField>>;
  meta: Partial<Pick<PostMetaRow, MetaField>>;
  tags?: TagRef[];
  authors?: AuthorRef[];
  /** Tier ids named by `tiers` (only ids count, as in Ghost's model). */
  tiers?: string[];
  /** Edit: the `updated_at` the client last saw (null skips the collision check). */
  updatedAt?: string | null;
  /** `?source=html`: the html to convert. */
  html?: string | null;
  /** `?source=html`: the converted lexical, when it is its own stored form (ghost-url.ts lexicalStoredAsIs). */
  lexicalStoredAsIs?: string;
  /** `?source=html` on a new post: the stored columns, when they were made with the lexical (posts.formats.ts contentFromHtml). */
  renderedFromHtml?: RenderedContent | RenderRefusal;
}

const NOT_NULLABLE: ReadonlySet<string> = new Set(['title', 'slug', 'featured', 'status', 'visibility', 'show_title_and_feature_image', 'email_only']);

/**
 * Tier ids named in a post body, as Ghost's model reduces them: only `id` is kept (a bare string or a
 * `{slug}`/`{name}` entry names nothing and is dropped), repeats collapse.
 */
function tierIdsOf(tiers: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const tier of tiers) {
    const id = tier && typeof tier === 'object' ? (tier as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Seconds precision, as Ghost stores dates. */
const toDate = (value: string) => new Date(Math.floor(new Date(value).getTime() / 1000) * 1000);

/**
 * A validated body (`POST_ADD`/`POST_EDIT`) as the model takes it, with the input serializer's shorthand
 * expansion of tags and authors.
 */
export function postChanges(type: PostType, input: PostInput): PostChanges {
  const changes: PostChanges = { post: {}, meta: {} };
  const post = changes.post as Record<string, unknown>;
  const meta = changes.meta as Record<string, unknown>;
  for (const key of WRITABLE_POST_FIELDS) {
    if (!(key in input)) continue;
    let value: unknown = input[key];
    // A null or empty visibility keeps the default rather than breaking the NOT NULL column.
    if (key === 'visibility' && (value === null || value === '')) continue;
    if (value === '' && !NOT_NULLABLE.has(key)) value = null;
    if (key === 'published_at' && typeof value === 'string') value = toDate(value);
    post[key] = value;
  }
  for (const key of META_FIELDS) {
    if (!(key in input)) continue;
    const value = input[key];
    meta[key] = value === '' ? null : value;
  }
  if (input.updated_at !== undefined) changes.updatedAt = input.updated_at;
  if (input.html !== undefined) {
    // Moved, not copied: the largest value a write can hold (12 MB and more) can be collected once converted.
    changes.html = input.html;
    delete input.html;
  }
  if (input.tags) {
    changes.tags = input.tags.map((tag) => {
      if (typeof tag === 'string') return { name: tag };
      const { id, name, slug } = tag;
      return { ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}), ...(slug !== undefined ? { slug } : {}) };
    });
  }
  if (input.tiers) changes.tiers = tierIdsOf(input.tiers);
  if (input.authors) changes.authors = input.authors.map((author) => (typeof author === 'string' ? { email: author } : author));
  return changes;
}
