import { createFrame, envOf, type Options } from './env.js';

/**
 * `{{#collection "featured"}}`: Ghost's collections are a labs feature without an API here; the block gets
 * the newest posts (`limit`, at most 3 by default, as Ghost), `featured` narrowing to featured posts.
 */
export function collection(this: unknown, slug: unknown, options: Options, done: (value: unknown) => void): void {
  const data = createFrame(options.data);
  if (typeof options.fn !== 'function') return done(undefined);
  const limit = options.hash.limit && options.hash.limit !== 'all' ? String(options.hash.limit) : '3';
  envOf(options)
    .browse('posts', { limit, include: 'authors,tags', ...(slug === 'featured' ? { filter: 'featured:true' } : {}) })
    .then(
      ({ items, pagination }) =>
        done(items.length ? options.fn({ posts: items, pagination }, { data, blockParams: [items, pagination] }) : options.inverse(this, { data })),
      () => done(options.inverse(this, { data })),
    );
}
