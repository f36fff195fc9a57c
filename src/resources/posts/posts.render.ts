/**
 * The one seam between posts and the content package (`src/content/`): rendering, derived text and the
 * `__GHOST_URL__` storage transforms. Posts code imports these names from here only.
 *
 * TEMPORARY: until issue-content is merged these are minimal stand-ins (no real card rendering).
 */
export async function renderLexical(lexical: string): Promise<string> {
  JSON.parse(lexical);
  return '';
}

export function renderMobiledoc(mobiledoc: string): string {
  JSON.parse(mobiledoc);
  return '';
}

export async function htmlToLexical(html: string): Promise<string> {
  return JSON.stringify({ root: { children: [], direction: null, format: '', indent: 0, type: 'root', version: 1, html } });
}

export function htmlToPlaintext(html: string): string {
  return html.replace(/<[^>]+>/g, '');
}

export function readingTime(post: { html: string | null; feature_image: string | null }): number {
  return Math.round(((post.html ?? '').split(/\s+/).length / 275));
}

export const toStorageUrl = (value: string, _siteUrl: string) => value;
export const fromStorageUrl = (value: string, _siteUrl: string) => value;
export const htmlToStorage = (value: string, _siteUrl: string) => value;
export const htmlFromStorage = (value: string, _siteUrl: string) => value;
export const lexicalToStorage = (value: string, _siteUrl: string) => value;
export const lexicalFromStorage = (value: string, _siteUrl: string) => value;
export const mobiledocToStorage = (value: string, _siteUrl: string) => value;
export const mobiledocFromStorage = (value: string, _siteUrl: string) => value;

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

export const notFoundUrl = (siteUrl: string) => `${siteUrl}404/`;
export const tagUrl = (siteUrl: string, slug: string, routable: boolean) => (routable ? `${siteUrl}tag/${slug}/` : notFoundUrl(siteUrl));
export { authorUrl } from '../../content/urls.js';
