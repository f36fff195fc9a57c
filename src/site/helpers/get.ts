import { createFrame, envOf, type Options, type SiteResource } from './env.js';

const RESOURCES: readonly string[] = ['posts', 'tags', 'pages', 'authors'];
const ALIASES: Record<string, string> = { 'post.tags': 'post.tags[*].slug', 'post.author': 'post.author.slug' };

/** A value by path (`post.tags[*].slug`, `primary_tag.slug`); arrays spread where `[*]` says so. */
function query(root: unknown, path: string): unknown[] {
  let values: unknown[] = [root];
  for (const part of path.replace(/\.\[/g, '[').split('.')) {
    const spread = part.endsWith('[*]');
    const name = spread ? part.slice(0, -3) : part;
    values = values.flatMap((value) => {
      const next = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
      if (next === undefined) return [];
      return spread && Array.isArray(next) ? next : [next];
    });
  }
  return values;
}

/** `filter="id:-{{post.id}}+tag:{{post.tags}}"`: `{{…}}` resolved against the context (or `@` data). */
function resolveFilter(filter: string, self: unknown, data: Record<string, unknown>): string {
  return filter.replace(/\{\{(.*?)\}\}/g, (_, raw: string) => {
    const path = ALIASES[raw] ?? raw;
    const found = path.startsWith('@') ? query(data, path.slice(1)) : query(self, path);
    return found.map((value) => (value instanceof Date ? value.toISOString() : String(value))).join(',');
  });
}

/**
 * `{{#get "posts" filter="…" limit="3" include="tags"}}`: a Content API browse in-process, with its query
 * options and limits; the block gets the list (and `pagination`), `{{else}}` runs when it is empty or failed.
 */
export function get(this: unknown, resource: unknown, options: Options, done: (value: unknown) => void): void {
  const data = createFrame(options.data);
  if (typeof options.fn !== 'function') return done(undefined);
  if (typeof resource !== 'string' || !RESOURCES.includes(resource)) return done(options.inverse(this, { data }));
  const env = envOf(options);
  // Query options as the API reads them from a URL: `limit=@config.posts_per_page` arrives as a number.
  const hash = Object.fromEntries(Object.entries(options.hash as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
  if (typeof hash.filter === 'string') hash.filter = resolveFilter(hash.filter, this, data);
  if (hash.id || hash.slug) {
    const key = hash.id ? 'id' : 'slug';
    hash.filter = `${key}:'${String(hash[key]).replace(/'/g, "\\'")}'`;
    delete hash.id;
    delete hash.slug;
  }
  env.browse(resource as SiteResource, hash).then(
    ({ items, pagination }) => {
      if (items.length === 0) return done(options.inverse(this, { data }));
      const context = { [resource]: items, pagination };
      done(options.fn(context, { data, blockParams: [items, pagination] }));
    },
    (err: unknown) => {
      env.log.warn({ err }, '{{#get}} helper failed');
      data.error = err instanceof Error ? err.message : String(err);
      done(options.inverse(this, { data }));
    },
  );
}
