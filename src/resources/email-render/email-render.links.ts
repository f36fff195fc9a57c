import { randomBytes } from 'node:crypto';
import type { WriteCtx } from '../../ctx.js';
import type { RedirectRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { toStorageUrl } from '../../content/ghost-url.js';
import { readSettings } from '../../settings/settings.js';
import { emailForLinks } from '../links/links.queries.js';
import { insertRedirects, redirectSlugsTaken } from './email-render.queries.js';
import { replaceEmailLinks } from './email-render.html.js';
import { tagUrl } from '../../content/outbound-links.js';

function isBadge(url: URL): boolean {
  return url.hostname === 'ghost.org' && url.pathname === '/' && url.searchParams.get('via') === 'pbg-newsletter';
}

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * Click tracking, for an email about to be sent with `email_track_clicks` on: each link of the rendered html
 * (but the unsubscribe and other personal links, and Ghost's badge) gets a redirect row and is rewritten to
 * `<site>/r/<8 hex>?m=%%{uuid}%%`, which personaliseEmail fills with the recipient's uuid. Site links carry
 * the post's attribution, and with `outbound_link_tagging` every link its `ref`, as Ghost tags them.
 * Returns the rewritten html; run it once per email, in the transaction that records the send.
 */
export async function recordEmailLinks(w: WriteCtx, emailId: string, html: string): Promise<string> {
  const email = await emailForLinks(w.db, emailId);
  const settings = await readSettings(w.db, ['outbound_link_tagging']);
  const tagging = settings.get('outbound_link_tagging') === 'true';
  const siteUrl = w.site.url;
  const site = new URL(siteUrl);
  const at = w.clock.now();
  const rows: RedirectRow[] = [];
  const newsletterRef = email?.newsletter_name ? slugify(email.newsletter_name) : null;

  const rewritten = replaceEmailLinks(html, siteUrl, (original) => {
    if (original.href.includes('%%{') || isBadge(original)) return original.href;
    let url = new URL(original.href);
    const ours = url.host === site.host && url.pathname.startsWith(site.pathname);
    if (tagging) {
      const ref =
        ours && newsletterRef ? (newsletterRef.endsWith('newsletter') ? newsletterRef : `${newsletterRef}-newsletter`) : site.hostname.replace(/^www\./, '');
      url = tagUrl(url, ref);
    }
    if (ours && email?.post_id && !url.searchParams.has('attribution_id') && !url.searchParams.has('attribution_type')) {
      url.searchParams.append('attribution_id', email.post_id);
      url.searchParams.append('attribution_type', 'post');
    }
    const slug = randomBytes(4).toString('hex');
    rows.push({ id: objectId(), from: `/r/${slug}`, to: toStorageUrl(url.href, siteUrl), post_id: email?.post_id ?? null, created_at: at, updated_at: at });
    return `${siteUrl}r/${slug}?m=%%{uuid}%%`;
  });

  // Eight random hex digits rarely collide; when one does, that link is given another slug.
  const taken = await redirectSlugsTaken(
    w.db,
    rows.map((row) => row.from),
  );
  let out = rewritten;
  for (const row of rows) {
    if (!taken.has(row.from)) continue;
    const fresh = `/r/${randomBytes(4).toString('hex')}`;
    out = out.replace(`${siteUrl}${row.from.slice(1)}?`, `${siteUrl}${fresh.slice(1)}?`);
    row.from = fresh;
  }
  await insertRedirects(w.db, rows);
  return out;
}
