import type { Ctx } from '../../ctx.js';
import type { Storage } from '../../storage/storage.js';
import { DEFAULT_ROUTES_YAML, parseRouteSettings, type RouteSettings } from './route-settings.validate.js';

/**
 * routes.yaml lives in storage beside the themes (`settings/routes.yaml`, where Ghost keeps it in its
 * content folder), so every instance reads the same file; an upload records `site.changed`, which moves
 * the content version, and each instance reads the file again at the next version (`site/site-config.ts`).
 */
export const ROUTES_KEY = 'settings/routes.yaml';

export async function readStoredText(storage: Storage, key: string): Promise<string | null> {
  if (!(await storage.exists(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The routes.yaml text in effect: the uploaded file, or Ghost's default one. */
export async function readRoutesYaml(ctx: Pick<Ctx, 'storage'>): Promise<string> {
  return (await readStoredText(ctx.storage, ROUTES_KEY)) ?? DEFAULT_ROUTES_YAML;
}

/** The routes in effect; a stored file that no longer validates (written by hand) falls back to the defaults. */
export async function readRouteSettings(ctx: Pick<Ctx, 'storage'>): Promise<RouteSettings> {
  try {
    return parseRouteSettings(await readRoutesYaml(ctx));
  } catch {
    return parseRouteSettings(DEFAULT_ROUTES_YAML);
  }
}

/** Validates `text` as Ghost does and stores it; throws Ghost's error and stores nothing when it is not valid. */
export async function storeRoutesYaml(ctx: Pick<Ctx, 'storage'>, text: string): Promise<RouteSettings> {
  const settings = parseRouteSettings(text);
  await ctx.storage.write(ROUTES_KEY, text);
  return settings;
}
