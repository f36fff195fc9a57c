/**
 * The one seam between posts and the content package (`src/content/`): rendering, derived text, the
 * `__GHOST_URL__` storage transforms and resource URLs. Posts, tags and authors import them from here.
 */
import { renderLexical as renderLexicalWith, renderMobiledoc as renderMobiledocWith } from '../../content/render.js';

export { htmlToLexical, htmlToMobiledoc, warmRenderers } from '../../content/render.js';
export { tagOutboundLinks } from '../../content/outbound-links.js';
export { excerptOf, htmlToPlaintext, readingTime } from '../../content/text.js';
export {
  toStorageUrl, fromStorageUrl, htmlToStorage, htmlFromStorage, plaintextToStorage, plaintextFromStorage,
  lexicalToStorage, lexicalFromStorage, mobiledocToStorage, mobiledocFromStorage,
} from '../../content/ghost-url.js';
export { notFoundUrl, postUrl, tagUrl, authorUrl } from '../../content/urls.js';

/** Lexical → html with the site URL (local images get Ghost's `srcset`). */
export const renderLexical = (lexical: string, siteUrl: string) => renderLexicalWith(lexical, { siteUrl });
export const renderMobiledoc = (mobiledoc: string, siteUrl: string) => renderMobiledocWith(mobiledoc, { siteUrl });

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
