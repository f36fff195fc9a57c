import { format as formatUrl, parse as parseUrl } from 'node:url';
import { parse as parseQuery, stringify as formatQuery } from 'node:querystring';
import { loadYaml } from '../../yaml.js';
import { errors } from '../../errors.js';

/**
 * Ghost's custom redirects (`core/server/services/custom-redirects` and its DynamicRedirectManager): a
 * JSON list of `{from, to, permanent}` or a YAML map of `301:`/`302:` entries, checked with Ghost's
 * messages, and matched as Ghost's Express router matches them.
 */
export interface RedirectRule {
  from: string;
  to: string;
  permanent?: boolean;
}

export type RedirectsFormat = 'json' | 'yaml';

const HELP = 'https://ghost.org/docs/themes/routing/#redirects';

/** The rules of a redirects file, in Ghost's order (a YAML file's 302s first, then its 301s); throws Ghost's error for a bad file. */
export function parseRedirects(text: string, format: RedirectsFormat): RedirectRule[] {
  let rules: unknown;
  if (format === 'json') {
    try {
      rules = JSON.parse(text);
    } catch (err) {
      throw errors.badRequest(`Could not parse JSON: ${(err as Error).message}.`);
    }
  } else {
    let parsed: unknown;
    try {
      parsed = loadYaml(text);
    } catch (err) {
      throw errors.badRequest(`Could not parse YAML: ${(err as Error).message}.`);
    }
    if (typeof parsed !== 'object' || parsed === null) {
      throw errors.badRequest({ message: 'YAML input is invalid. Check the contents of your YAML file.', help: HELP });
    }
    const map = parsed as Record<string, unknown>;
    const list: RedirectRule[] = [];
    for (const [status, permanent] of [
      ['302', false],
      ['301', true],
    ] as const) {
      const entries = map[status];
      if (entries && typeof entries === 'object') {
        for (const [from, to] of Object.entries(entries)) list.push({ from, to: to as string, permanent });
      }
    }
    rules = list;
  }
  validateRedirects(rules);
  return rules;
}

function validateRedirects(rules: unknown): asserts rules is RedirectRule[] {
  if (!Array.isArray(rules)) throw errors.validation({ message: 'Incorrect redirects file format.', help: HELP });
  for (const rule of rules as Record<string, unknown>[]) {
    // Ghost names the offending entry in `context` as the object itself.
    const context = rule as never;
    if (!rule?.from || !rule.to) throw errors.validation({ message: 'Incorrect redirects file format.', context, help: HELP });
    try {
      new RegExp(String(rule.from));
    } catch {
      throw errors.validation({ message: 'Incorrect RegEx in redirects file.', context, help: HELP });
    }
  }
}

export interface CompiledRedirect {
  from: RegExp;
  to: string;
  permanent: boolean;
}

/** Ghost's `buildRegex`: `/…/i` is case-insensitive, a trailing slash is optional, the end is anchored (the start is not). */
function buildRegex(from: string): RegExp {
  let source = from;
  let flags = '';
  if (source.startsWith('/') && source.endsWith('/i')) {
    source = source.slice(1, -2);
    flags += 'i';
  }
  if (source.endsWith('/')) source = source.slice(0, -1);
  if (!source.endsWith('$')) source += '/?$';
  return new RegExp(source, flags);
}

/** The rules as matchers; the first of two rules with the same `from` wins, as in Ghost's router. */
export function compileRedirects(rules: readonly RedirectRule[]): CompiledRedirect[] {
  const seen = new Set<string>();
  const out: CompiledRedirect[] = [];
  for (const rule of rules) {
    let from = String(rule.from);
    try {
      new RegExp(from);
    } catch {
      from = encodeURI(from);
    }
    if (seen.has(from)) continue;
    seen.add(from);
    try {
      out.push({ from: buildRegex(from), to: String(rule.to), permanent: Boolean(rule.permanent) });
    } catch {
      // Ghost skips a rule whose pattern stops being a regular expression once built.
    }
  }
  return out;
}

export interface RedirectAnswer {
  status: 301 | 302;
  location: string;
  cacheControl: string;
}

/**
 * The redirect for `url` (the path within the site with its query), or null. As Ghost: the path is
 * rewritten with the rule's `to` (captures as `$1`), the request's query is kept and merged with the
 * target's (the target's values win), and a relative target stays under the site's path.
 */
export function findRedirect(redirects: readonly CompiledRedirect[], url: string, sitePath: string): RedirectAnswer | null {
  const current = parseUrl(url);
  const pathname = current.pathname ?? '/';
  const rule = redirects.find((candidate) => candidate.from.test(pathname));
  if (!rule) return null;
  const target = parseUrl(rule.to);
  const params = { ...parseQuery(current.query ?? ''), ...parseQuery(target.query ?? '') };
  const search = formatQuery(params);
  target.pathname = pathname.replace(rule.from, target.pathname ?? '/');
  target.search = search !== '' ? `?${search}` : null;
  target.query = null;
  target.path = null;
  target.href = '';
  if (!target.hostname) target.pathname = `${sitePath.replace(/\/$/, '')}${target.pathname.startsWith('/') ? '' : '/'}${target.pathname}`;
  return {
    status: rule.permanent ? 301 : 302,
    location: formatUrl(target),
    cacheControl: `public, max-age=${rule.permanent ? 31536000 : 0}`,
  };
}
