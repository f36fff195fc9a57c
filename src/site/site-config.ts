import type { Ctx } from '../ctx.js';
import { readRouteSettings } from '../resources/route-settings/route-settings.store.js';
import { readRedirectRules } from '../resources/redirects/redirects.store.js';
import type { CompiledRedirect } from '../resources/redirects/redirects.parse.js';
import { readAllSettings } from '../settings/settings.js';
import { loadPermalinks, type Permalinks } from './permalinks.js';
import { siteRoutesFrom, type SiteRoutes } from './routing.js';

export interface SiteConfig {
  routes: SiteRoutes;
  redirects: CompiledRedirect[];
  /** Which collection owns each post, read on first use at this version (posts move when content changes). */
  permalinks(ctx: Ctx): Promise<Permalinks>;
}

/**
 * The uploaded routes.yaml and redirects as the site applies them, read from storage again whenever the
 * content version moves (an upload records `site.changed`), so every instance follows an upload made
 * through any other on its next request. `fixed` routes (tests, and callers that pass their own) skip the file.
 */
export class SiteConfigStore {
  #version = -1;
  #current: Promise<SiteConfig> | null = null;

  constructor(private readonly fixed?: SiteRoutes) {}

  at(ctx: Ctx, version: number): Promise<SiteConfig> {
    if (this.#current && this.#version === version) return this.#current;
    const loading = this.#load(ctx);
    this.#version = version;
    this.#current = loading;
    // A failed read is not kept: the next request tries again.
    loading.catch(() => {
      if (this.#current === loading) this.#current = null;
    });
    return loading;
  }

  async #load(ctx: Ctx): Promise<SiteConfig> {
    const [routes, redirects] = await Promise.all([this.fixed ?? readRouteSettings(ctx).then(siteRoutesFrom), readRedirectRules(ctx)]);
    let permalinks: Promise<Permalinks> | null = null;
    return {
      routes,
      redirects,
      permalinks: (reader) => {
        permalinks ??= readAllSettings(reader.db).then((values) => loadPermalinks(reader, routes, values.get('timezone') ?? 'Etc/UTC'));
        permalinks.catch(() => (permalinks = null));
        return permalinks;
      },
    };
  }
}
