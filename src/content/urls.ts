/** Resource URLs on the public site (content-formats.md §6); the site URL always ends with `/`. */
export const notFoundUrl = (siteUrl: string) => `${siteUrl}404/`;

export function authorUrl(siteUrl: string, slug: string, hasPublishedPosts: boolean): string {
  return hasPublishedPosts ? `${siteUrl}author/${slug}/` : notFoundUrl(siteUrl);
}
