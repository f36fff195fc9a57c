import { domainToASCII } from 'node:url';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { readSetting } from '../../settings/settings.js';
import type { Attribution } from './members-api.tokens.js';
import { newslettersNamed, publishedPostById, publishedPostBySlug } from './members-api.queries.js';

/**
 * What `send-magic-link` takes from its body besides the address, checked as Ghost checks it: newsletters by
 * name (unknown or archived ones refused), labels and name kept as given (strings only here), the visitor's
 * URL history turned into the sign-up's attribution.
 */

/** Ghost's normalize-email: the domain in ASCII (punycode), so look-alike Unicode domains cannot pass as others. */
export function normalizeEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const domain = domainToASCII(email.slice(at + 1));
  return domain ? `${email.slice(0, at)}@${domain}` : null;
}

/** Labels a sign-up form names (`data-members-label`): names, or objects with a name. */
export function labelNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((item: unknown) =>
      typeof item === 'string'
        ? item
        : item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string'
          ? (item as { name: string }).name
          : '',
    )
    .map((name) => name.trim().slice(0, 191))
    .filter((name) => name.length > 0);
}

export function memberName(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().slice(0, 191) : undefined;
}

/** Ghost's `_validateNewsletters`: the newsletters named, active ones as `{id}`; undefined for "the defaults". */
export async function validateNewsletters(ctx: Ctx, requested: unknown): Promise<{ id: string }[] | undefined> {
  if (!Array.isArray(requested) || requested.length === 0) return undefined;
  const names = requested.map((item: unknown) => (item && typeof item === 'object' ? (item as { name?: unknown }).name : undefined));
  if (names.some((name) => typeof name !== 'string' || !name)) return undefined;
  const wanted = names as string[];
  const found = await newslettersNamed(ctx.db, wanted);
  const foundNames = new Set(found.map((n) => n.name));
  if (found.length !== wanted.length) {
    const invalid = wanted.filter((name) => !foundNames.has(name));
    throw errors.badRequest(`Cannot subscribe to invalid newsletters ${invalid.join(',')}`);
  }
  const archived = found.filter((n) => n.status === 'archived').map((n) => n.name);
  if (archived.length > 0) throw errors.badRequest(`Cannot subscribe to archived newsletters ${archived.join(',')}`);
  return found.filter((n) => n.status === 'active').map((n) => ({ id: n.id }));
}

interface HistoryItem {
  path?: string;
  id?: string;
  type?: string;
  time: number;
  referrerSource?: string;
  referrerMedium?: string;
  referrerUrl?: string;
}

const HISTORY_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const EMPTY: Attribution = { id: null, type: null, url: null, referrer_source: null, referrer_medium: null, referrer_url: null };

/** Ghost's UrlHistory check: every entry has a path, a post id or a referrer source, and a whole-number time. */
function validHistory(value: unknown): value is HistoryItem[] {
  if (!Array.isArray(value)) return false;
  return value.every((item: HistoryItem | null) => {
    if (!item || typeof item !== 'object') return false;
    const idEntry = typeof item.id === 'string' && item.type === 'post';
    const ok = typeof item.path === 'string' || idEntry || typeof item.referrerSource === 'string';
    return ok && Number.isSafeInteger(item.time);
  });
}

/**
 * The sign-up's attribution from Portal's `urlHistory` (Ghost's "last post" rule): the most recent post
 * visited in the last day, else the most recent page visited, else the most recent path; the referrer from
 * the most recent entry that has one. Nothing when the site does not track sources.
 */
export async function attributionOf(ctx: Ctx, urlHistory: unknown): Promise<Attribution> {
  if (!validHistory(urlHistory) || (await readSetting(ctx.db, 'members_track_sources')) === 'false') return EMPTY;
  const now = ctx.clock.epochMs();
  const recent = urlHistory.filter((item) => now - item.time < HISTORY_MAX_AGE_MS).reverse();
  if (recent.length === 0) return EMPTY;
  const ref = recent.find((item) => item.referrerSource || item.referrerUrl);
  const referrer = {
    referrer_source: ref?.referrerSource ?? null,
    referrer_medium: ref?.referrerMedium ?? null,
    referrer_url: ref?.referrerUrl ?? null,
  };
  const siteBase = new URL(ctx.site.url).pathname;
  let firstPath: Resource | null = null;
  let firstPage: Resource | null = null;
  for (const item of recent) {
    const resource = await resourceOf(ctx, item, siteBase);
    if (!resource) continue;
    if (resource.type === 'post') return { ...resource, ...referrer };
    if (resource.id && !firstPage) firstPage = resource;
    firstPath ??= resource;
  }
  return { ...(firstPage ?? firstPath ?? NO_RESOURCE), ...referrer };
}

type Resource = Pick<Attribution, 'id' | 'type' | 'url'>;
const NO_RESOURCE: Resource = { id: null, type: null, url: null };

/** A history entry's post or page (by id, or by the slug its path names), else its path as a plain URL. */
async function resourceOf(ctx: Ctx, item: HistoryItem, siteBase: string): Promise<Resource | null> {
  if (typeof item.id === 'string' && item.type === 'post') {
    const post = await publishedPostById(ctx.db, item.id);
    if (post) return { id: post.id, type: post.type === 'page' ? 'page' : 'post', url: `/${post.slug}/` };
  }
  if (typeof item.path !== 'string') return null;
  const path = item.path.slice(0, 2000);
  const rel = path.startsWith(siteBase) ? path.slice(siteBase.length) : path.replace(/^\//, '');
  const slug = /^([a-z0-9-]+)\/?$/i.exec(rel)?.[1];
  if (slug) {
    const post = await publishedPostBySlug(ctx.db, slug);
    if (post) return { id: post.id, type: post.type === 'page' ? 'page' : 'post', url: path };
  }
  return { id: null, type: 'url', url: path };
}
