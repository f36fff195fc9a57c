import type { Ctx } from '../../ctx.js';
import { errors, GhostError } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { filterWhere } from '../../filter/filter.js';
import { parseNql } from '../../filter/nql.js';
import { fromStorageUrl, toStorageUrl } from '../../content/ghost-url.js';
import { wallClock } from '../../content/dates.js';
import { readSettings } from '../../settings/settings.js';
import { REDIRECTS_FILTER } from './links.fields.js';
import {
  insertClick,
  memberForClick,
  redirectByFrom,
  redirectIdsOfPostTo,
  redirectsWithClicks,
  setMemberLastSeen,
  updateRedirectTargets,
} from './links.queries.js';

/** `GET /links/`: each tracked link with its clicks, as Ghost's FullPostLink serialises. */
export async function browseLinks(ctx: Ctx, filter: string | undefined) {
  const where = filterWhere(REDIRECTS_FILTER, ctx.engine, filter);
  const rows = await redirectsWithClicks(ctx.db, where);
  const links = rows.map((row) => ({
    post_id: row.post_id,
    link: {
      link_id: row.id,
      from: new URL(row.from.replace(/^\//, ''), ctx.site.url).href,
      to: fromStorageUrl(row.to, ctx.site.url),
      // Ghost counts a link as edited once it changed more than a second after it was made.
      edited: !!row.updated_at && new Date(row.updated_at).getTime() > new Date(row.created_at).getTime() + 1000,
    },
    count: { clicks: Number(row.clicks) },
  }));
  return { links, meta: { pagination: { total: links.length, page: 1, pages: 1 } } };
}

/** Ghost reads the bulk edit's filter as `post_id:'<id>'+to:'<url>'` and nothing else. */
function parseLinkFilter(filter: string): { postId: string; to: URL } {
  try {
    const parsed = parseNql(filter) as { $and?: Record<string, unknown>[] };
    const postId = parsed.$and?.[0]?.post_id;
    const to = new URL(String(parsed.$and?.[1]?.to));
    if (typeof postId !== 'string' || !postId) throw new Error('post_id is missing');
    return { postId, to };
  } catch (err) {
    const context = err instanceof GhostError ? (err.context ?? err.message) : (err as Error).message;
    throw errors.badRequest({ message: 'Invalid filter value received', context: String(context) });
  }
}

/**
 * `PUT /links/bulk/?filter=post_id:'…'+to:'…'` with `{bulk: {action: 'updateLink', meta: {link: {to}}}}`: points
 * every redirect of that post and URL at the new URL (keeping the old one's `ref`, and the post's attribution on
 * site links, as Ghost does).
 */
export async function updateLinks(ctx: Ctx, filter: string, newTo: string) {
  const { postId, to } = parseLinkFilter(filter);
  let next: URL;
  try {
    next = new URL(newTo);
  } catch {
    throw errors.validation('Invalid redirect URL value');
  }
  const ref = to.searchParams.get('ref');
  if (ref !== null) next.searchParams.set('ref', ref);
  const site = new URL(ctx.site.url);
  if (next.host === site.host && next.pathname.startsWith(site.pathname)) {
    next.searchParams.set('attribution_type', 'post');
    next.searchParams.set('attribution_id', postId);
  }
  const successful = await ctx.write(async (w) => {
    const ids = await redirectIdsOfPostTo(w.db, postId, toStorageUrl(to.href, ctx.site.url));
    return updateRedirectTargets(w.db, ids, toStorageUrl(next.href, ctx.site.url), w.clock.now());
  });
  return { bulk: { action: 'updateLink', meta: { stats: { successful, unsuccessful: 0 }, errors: [], unsuccessfulData: [] } } };
}

/** Start of the day `at` falls in, in the site's timezone. */
function startOfDay(at: Date, timezone: string): Date {
  const { hour, minute, second } = wallClock(at, timezone);
  const sinceMidnight = (hour * 3600 + minute * 60 + second) * 1000 + at.getMilliseconds();
  return new Date(at.getTime() - sinceMidnight);
}

/**
 * A visit to `/r/<slug>`: the original URL, after recording the click of the member named by `?m=<uuid>` (no
 * member, no click) and, as Ghost's LastSeenAtUpdater does, their `last_seen_at` when not seen yet that day.
 */
export async function followLink(ctx: Ctx, slug: string, memberUuid: string | undefined): Promise<string | null> {
  const redirect = await redirectByFrom(ctx.db, `/r/${slug}`);
  if (!redirect) return null;
  if (memberUuid) {
    const member = await memberForClick(ctx.db, memberUuid);
    if (member) {
      const timezone = (await readSettings(ctx.db, ['timezone'])).get('timezone') || 'Etc/UTC';
      await ctx.write(async (w) => {
        const at = w.clock.now();
        await insertClick(w.db, { id: objectId(), member_id: member.id, redirect_id: redirect.id, created_at: at });
        if (!member.last_seen_at || startOfDay(at, timezone) > new Date(member.last_seen_at)) await setMemberLastSeen(w.db, member.id, at);
      });
    }
  }
  return fromStorageUrl(redirect.to, ctx.site.url);
}
