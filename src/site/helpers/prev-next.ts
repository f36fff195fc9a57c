import { createFrame, envOf, type Options } from './env.js';

/** `{{#prev_post}}`/`{{#next_post}}`: the published post before or after this one by publish date (`in="primary_tag"` narrows). */
function adjacent(direction: 'prev' | 'next') {
  return function (this: Record<string, unknown>, options: Options, done: (value: unknown) => void): void {
    const data = createFrame(options.data);
    if (typeof options.fn !== 'function' || this.type === 'page' || !this.published_at || (this.status !== undefined && this.status !== 'published')) {
      return done(options.inverse?.(this, { data }) ?? '');
    }
    const env = envOf(options);
    const published = new Date(String(this.published_at)).toISOString();
    const op = direction === 'next' ? '>' : '<';
    let filter = `published_at:${op}'${published}'+id:-${String(this.id)}`;
    const within = options.hash.in as string | undefined;
    const primaryTag = this.primary_tag as { slug?: string } | null;
    const primaryAuthor = this.primary_author as { slug?: string } | null;
    if (within === 'primary_tag' && primaryTag?.slug) filter += `+primary_tag:${primaryTag.slug}`;
    if (within === 'primary_author' && primaryAuthor?.slug) filter += `+primary_author:${primaryAuthor.slug}`;
    if (within === 'author' && primaryAuthor?.slug) filter += `+author:${primaryAuthor.slug}`;
    const order = direction === 'next' ? 'published_at asc' : 'published_at desc';
    env.browse('posts', { filter, order, limit: '1', include: 'authors,tags' }).then(
      ({ items }) => done(items[0] ? options.fn(items[0], { data }) : options.inverse(this, { data })),
      (err: unknown) => {
        env.log.warn({ err }, `{{#${direction}_post}} helper failed`);
        done(options.inverse(this, { data }));
      },
    );
  };
}

export const prev_post = adjacent('prev');
export const next_post = adjacent('next');
