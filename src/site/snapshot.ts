import type { Ctx } from '../ctx.js';
import { readAllSettings } from '../settings/settings.js';
import { labsFlags } from '../settings/derived.js';
import { directReads, type Entity, type EntityKey, type Page, type SiteReads, type SiteResource } from './data.js';
import type { PostType } from '../resources/posts/posts.schemas.js';
import { frontendContentKey } from './frontend-key.js';
import { presentContentSettings } from '../resources/settings/settings.present.js';
import { siteFacts } from '../resources/settings/settings.service.js';

/** What every page rendered at one content version reads the same way: the settings as templates see them, the frontend key. */
export interface SiteGlobals {
  values: ReadonlyMap<string, string | null>;
  /** `@site`. */
  site: Record<string, unknown>;
  /** `@labs`. */
  labs: Record<string, unknown>;
  /** The Content API key Portal and search send (`{{content_api_key}}`, `{{ghost_head}}`). */
  contentKey: string;
}

/** About how much kept data one version may hold (characters of the posts' html and text, plus a share per entity). */
const KEPT_BUDGET = 24 * 1024 * 1024;
const MAX_KEPT = 2000;
const ENTITY_COST = 2048;

function costOf(value: unknown): number {
  const entities = value && typeof value === 'object' && 'items' in value ? (value as Page).items : value ? [value as Entity] : [];
  let cost = 0;
  for (const entity of entities) {
    cost += ENTITY_COST;
    for (const field of ['html', 'plaintext', 'lexical'] as const) if (typeof entity[field] === 'string') cost += (entity[field] as string).length;
  }
  return cost;
}

/**
 * Kept data is shared by every render of its version, so it is frozen (objects and arrays, all the way down):
 * templates only read their context, and a helper that wrote to it would fail in the tests rather than change
 * another reader's page.
 */
function deepFreeze<T>(value: T): T {
  const plain = Array.isArray(value) || (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value)));
  if (plain && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * What the pages rendered at one content version share. Every write that changes what the site shows (posts,
 * tags, authors, settings, the theme) bumps the content version, so a read made at version N answers every
 * page rendered at N: the site's data and settings are read once per version and kept here (bounded), and
 * concurrent renders of a new version share one read in flight instead of each querying. A signed-in
 * member's reads are never kept (their access decides what the posts hold).
 */
export class VersionSnapshot {
  readonly #kept = new Map<string, { value: Promise<unknown>; cost: number }>();
  #cost = 0;
  #globals: Promise<SiteGlobals> | null = null;
  readonly reads: SiteReads;

  constructor(
    readonly version: number,
    private readonly ctx: Ctx,
  ) {
    this.reads = {
      browse: (resource: SiteResource, query: Record<string, unknown>) =>
        this.#read(['browse', resource, query], () => directReads(ctx).browse(resource, query)),
      readPost: (type: PostType, key: EntityKey) => this.#read(['post', type, key], () => directReads(ctx).readPost(type, key)),
      readTag: (key: EntityKey) => this.#read(['tag', key], () => directReads(ctx).readTag(key)),
      readAuthor: (key: EntityKey) => this.#read(['author', key], () => directReads(ctx).readAuthor(key)),
    };
  }

  /** The settings, `@site`, `@labs` and the frontend key, read once for this version. */
  globals(): Promise<SiteGlobals> {
    this.#globals ??= loadGlobals(this.ctx);
    this.#globals.catch(() => (this.#globals = null));
    return this.#globals;
  }

  /** A value derived from this version's data (e.g. a post's feed entry), made once. */
  keep<T>(name: string, make: () => T): T {
    const key = `keep\n${name}`;
    const found = this.#kept.get(key);
    if (found) return found.value as T;
    const value = make();
    this.#store(key, value, typeof value === 'string' ? value.length : ENTITY_COST);
    return value;
  }

  #read<T>(parts: unknown[], load: () => Promise<T>): Promise<T> {
    let key: string;
    try {
      key = JSON.stringify(parts);
    } catch {
      return load();
    }
    const found = this.#kept.get(key);
    if (found) return found.value as Promise<T>;
    const value = load().then(deepFreeze);
    const entry = this.#store(key, value, ENTITY_COST);
    value.then(
      (result) => {
        if (this.#kept.get(key) !== entry) return;
        const cost = costOf(result);
        // Too large to keep (a `limit="all"` list of a big site): answered, not kept.
        if (cost > KEPT_BUDGET / 4) return this.#drop(key);
        this.#cost += cost - entry.cost;
        entry.cost = cost;
        this.#trim();
      },
      () => {
        if (this.#kept.get(key) === entry) this.#drop(key);
      },
    );
    return value;
  }

  #store(key: string, value: unknown, cost: number) {
    const entry = { value: value as Promise<unknown>, cost };
    this.#kept.set(key, entry);
    this.#cost += cost;
    this.#trim();
    return entry;
  }

  #drop(key: string) {
    const found = this.#kept.get(key);
    if (!found) return;
    this.#kept.delete(key);
    this.#cost -= found.cost;
  }

  /** The oldest kept values go first. */
  #trim() {
    while ((this.#cost > KEPT_BUDGET || this.#kept.size > MAX_KEPT) && this.#kept.size > 0) this.#drop(this.#kept.keys().next().value!);
  }
}

/** `@site` as Ghost's global template options build it: the public settings, the URL without its slash, sign-up and comments flags. */
export function siteData(values: ReadonlyMap<string, string | null>, ctx: Ctx): Record<string, unknown> {
  const settings = presentContentSettings(values as never, siteFacts(ctx)) as Record<string, unknown>;
  const url = ctx.site.url.replace(/\/$/, '');
  const signupUrl =
    values.get('members_signup_access') === 'none' ? `https://feedly.com/i/subscription/feed/${encodeURIComponent(`${ctx.site.url}rss/`)}` : '#/portal';
  return { ...settings, url, signup_url: signupUrl, comments_enabled: settings.comments_enabled !== 'off', comments_access: settings.comments_enabled };
}

async function loadGlobals(ctx: Ctx): Promise<SiteGlobals> {
  const [values, contentKey] = await Promise.all([readAllSettings(ctx.db) as Promise<ReadonlyMap<string, string | null>>, frontendContentKey(ctx)]);
  return { values, site: siteData(values, ctx), labs: labsFlags(values as never), contentKey };
}

/**
 * The snapshot of the newest content version seen. A request that read an older version (it raced a write)
 * gets a snapshot of its own, used once.
 */
export class Snapshots {
  #current: VersionSnapshot | null = null;

  constructor(private readonly ctx: () => Ctx) {}

  at(version: number): VersionSnapshot {
    const current = this.#current;
    if (current && current.version === version) return current;
    const snapshot = new VersionSnapshot(version, this.ctx());
    if (!current || version > current.version) this.#current = snapshot;
    return snapshot;
  }
}
