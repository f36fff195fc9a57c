import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { slugify } = require('@tryghost/string') as { slugify: (value: string, options?: { requiredChangesOnly?: boolean }) => string };

export { slugify };

/** Slugs that would shadow site routes; Ghost appends the resource name (`rss` → `rss-post`). */
const PROTECTED_SLUGS = ['ghost', 'rss', 'amp'];
const MAX_SLUG = 185;

export interface SlugOptions {
  /** Singular resource name: `post`, `tag`, `user`, `integration`, … */
  kind: string;
  /** Is this slug taken by another record? */
  taken: (slug: string) => Promise<boolean>;
  /** Users get the first word of their name when it is free (`Jane Doe` → `jane`). */
  shortSlug?: boolean;
}

/** Ghost's `generateSlug`: slugify, shorten (users), protect, then `-2`, `-3`, … until free. */
export async function generateSlug(base: string, { kind, taken, shortSlug }: SlugOptions): Promise<string> {
  let slug = slugify(base).slice(0, MAX_SLUG);
  let longSlug: string | null = null;
  if (kind === 'user' && shortSlug && slug !== 'ghost-owner' && slug.includes('-')) {
    longSlug = slug;
    slug = slug.slice(0, slug.indexOf('-'));
  }
  if (kind === 'tag' && base.startsWith('#')) slug = `hash-${slug}`;
  if (PROTECTED_SLUGS.includes(slug)) slug = `${slug}-${kind}`;
  if (!slug) slug = kind;

  if (!(await taken(slug))) return slug;
  // A shortened user slug that is taken falls back to the full one before numbering.
  if (longSlug) {
    slug = longSlug;
    if (!(await taken(slug))) return slug;
  }
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}
