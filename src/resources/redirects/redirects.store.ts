import type { Ctx } from '../../ctx.js';
import { readStoredText } from '../route-settings/route-settings.store.js';
import { compileRedirects, parseRedirects, type CompiledRedirect, type RedirectRule, type RedirectsFormat } from './redirects.parse.js';

/**
 * The redirects file lives in storage where Ghost keeps it (`data/redirects.yaml` or `data/redirects.json`;
 * the YAML one wins when both exist). An upload replaces the other kind, records `site.changed`, and every
 * instance reads the file again at the next content version (`site/site-config.ts`).
 */
const KEYS: Record<RedirectsFormat, string> = { yaml: 'data/redirects.yaml', json: 'data/redirects.json' };

export interface StoredRedirects {
  format: RedirectsFormat;
  text: string;
}

/** The stored file, YAML first as Ghost looks for it, or null. */
export async function readStoredRedirects(ctx: Pick<Ctx, 'storage'>): Promise<StoredRedirects | null> {
  for (const format of ['yaml', 'json'] as const) {
    const text = await readStoredText(ctx.storage, KEYS[format]);
    if (text !== null) return { format, text };
  }
  return null;
}

/** The rules in effect; a stored file that does not parse (written by hand) gives none, as Ghost logs and skips it. */
export async function readRedirectRules(ctx: Pick<Ctx, 'storage'>): Promise<CompiledRedirect[]> {
  const stored = await readStoredRedirects(ctx);
  if (!stored) return [];
  try {
    return compileRedirects(parseRedirects(stored.text, stored.format));
  } catch {
    return [];
  }
}

/**
 * Validates and stores a redirects file: JSON is kept as Ghost rewrites it (the parsed list, compact), YAML
 * as uploaded. Throws Ghost's error and stores nothing when the file is not valid.
 */
export async function storeRedirects(ctx: Pick<Ctx, 'storage'>, text: string, format: RedirectsFormat): Promise<RedirectRule[]> {
  const rules = parseRedirects(text, format);
  await ctx.storage.write(KEYS[format], format === 'json' ? JSON.stringify(rules) : text, { private: true });
  await ctx.storage.delete(KEYS[format === 'json' ? 'yaml' : 'json']);
  return rules;
}
