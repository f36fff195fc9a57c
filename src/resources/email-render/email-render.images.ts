/**
 * Images of the newsletter frame (header image, feature image) at the width the 600px column shows them, as
 * Ghost's `limitImageWidth`: the site's own images are asked for at twice the width (`/size/w1200/`), Unsplash's
 * with `w=1200`. Ghost reads a remote image's size over the network; Quire makes no outbound request to render a
 * mail, so other images keep their source and no width.
 */
const VISIBLE_WIDTH = 600;

export function sizedImage(href: string | null, siteUrl: string): { href: string | null; width: number } {
  if (!href) return { href: null, width: 0 };
  const absolute = href.replace(/^__GHOST_URL__\//, siteUrl);
  let url: URL;
  try {
    url = new URL(absolute, siteUrl);
  } catch {
    return { href: absolute, width: 0 };
  }
  if (url.hostname === 'images.unsplash.com') {
    url.searchParams.delete('w');
    url.searchParams.delete('h');
    url.searchParams.set('w', String(VISIBLE_WIDTH * 2));
    return { href: url.href, width: VISIBLE_WIDTH };
  }
  const local = `${siteUrl}content/images/`;
  if (url.href.startsWith(local) && !url.href.startsWith(`${local}size/`)) {
    return { href: url.href.replace('/content/images/', `/content/images/size/w${VISIBLE_WIDTH * 2}/`), width: VISIBLE_WIDTH };
  }
  return { href: url.href, width: 0 };
}
