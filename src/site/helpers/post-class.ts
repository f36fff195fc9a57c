import { SafeString } from './env.js';

export function post_class(this: Record<string, unknown>) {
  const post = this.post as Record<string, unknown> | undefined;
  const tags = ((post?.tags ?? this.tags) as { slug: string }[] | undefined) ?? [];
  const featured = post?.featured ? post.featured : (this.featured ?? false);
  const image = post?.feature_image ? post.feature_image : (this.feature_image ?? false);
  const page = post?.page ? post.page : (this.page ?? false);
  const classes = ['post', ...tags.map((tag) => `tag-${tag.slug}`)];
  if (featured) classes.push('featured');
  if (!image) classes.push('no-image');
  if (page) classes.push('page');
  return new SafeString(classes.join(' ').trim());
}
