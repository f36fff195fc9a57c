/**
 * Resource URLs on the public site, for Ghost's default routes.yaml
 * (`/{slug}/` collection permalink, `/tag/{slug}/`, `/author/{slug}/`). The site URL always ends with `/`.
 */
export const notFoundUrl = (siteUrl: string) => `${siteUrl}404/`;

export interface PostUrlFields {
  slug: string;
  uuid: string;
  status: string;
  /** `post` or `page`: both are served at `/{slug}/` once published (pages by the pages router). */
  type: string;
  /** posts_meta.email_only: an unpublished email-only post previews at `/email/{uuid}/`. */
  email_only?: boolean | null;
}

/**
 * A post's or page's `url`: its permalink once published; otherwise (draft, scheduled, sent) the Admin
 * preview URL `/p/{uuid}/`. The Content API never returns unpublished items, so it only sees permalinks.
 */
export function postUrl(siteUrl: string, post: PostUrlFields): string {
  if (post.status === 'published') return `${siteUrl}${post.slug}/`;
  return `${siteUrl}${post.email_only ? 'email' : 'p'}/${post.uuid}/`;
}

/** `routable` = the tag is public (`visibility: public`) and on at least one published post or page. */
export function tagUrl(siteUrl: string, slug: string, routable: boolean): string {
  return routable ? `${siteUrl}tag/${slug}/` : notFoundUrl(siteUrl);
}

/**
 * Ghost's input serializers make site-relative image paths (`/content/images/…`) absolute before storing;
 * everything else is kept as given.
 */
export function absoluteImageUrl(value: string, siteUrl: string): string {
  const site = new URL(siteUrl);
  const subdir = site.pathname.replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(value, siteUrl);
  } catch {
    return value;
  }
  if (!url.pathname.includes(`${subdir}/content/images`)) return value;
  if (!value.startsWith('/') || value.startsWith('//')) return value;
  return site.origin + (value.startsWith(`${subdir}/`) ? value : `${subdir}${value}`);
}

/** `hasPublishedPosts` = the user is an author of at least one published post or page. */
export function authorUrl(siteUrl: string, slug: string, hasPublishedPosts: boolean): string {
  return hasPublishedPosts ? `${siteUrl}author/${slug}/` : notFoundUrl(siteUrl);
}
