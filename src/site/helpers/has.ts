import type { Options } from './env.js';

type Obj = Record<string, unknown>;
const ATTRS = ['tag', 'author', 'slug', 'visibility', 'id', 'number', 'index', 'any', 'all'] as const;

function count(expr: string, list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  let m = /count:(\d+)/.exec(expr);
  if (m) return Number(m[1]) === list.length;
  m = /count:>(\d+)/.exec(expr);
  if (m) return Number(m[1]) < list.length;
  m = /count:<(\d+)/.exec(expr);
  if (m) return Number(m[1]) > list.length;
  return false;
}

const split = (expr: string) => expr.split(',').map((value) => value.trim());
const escapeRe = (text: string) => text.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');

function integerMatch(expr: string, value: unknown): boolean {
  const nth = /^nth:(\d+)/.exec(expr);
  if (nth) return (value as number) % parseInt(nth[1]!, 10) === 0;
  return expr.split(',').some((item) => parseInt(item, 10) === value);
}

const same = (expr: unknown, value: unknown) =>
  typeof expr === 'string' && typeof value === 'string' && Boolean(expr) && expr.toLocaleLowerCase() === value.toLocaleLowerCase();

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (typeof value === 'object' && Object.keys(value).length === 0) ||
  typeof value === 'number' ||
  typeof value === 'boolean';

function getPath(obj: unknown, dotted: string): { found: boolean; value: unknown } {
  let current: unknown = obj;
  for (const part of dotted.split('.')) {
    if (!current || typeof current !== 'object' || !(part in current)) return { found: false, value: undefined };
    current = (current as Obj)[part];
  }
  return { found: true, value: current };
}

function listMatch(kind: 'some' | 'every', expr: string, self: unknown, data: Obj): boolean {
  return expr
    .split(',')
    .map((prop) => prop.trim().toLocaleLowerCase())
    [kind]((prop) => {
      const { found, value } = prop.startsWith('@') ? getPath(data, prop.slice(1)) : getPath(self, prop);
      return found && !isEmpty(value);
    });
}

/** Ghost's `{{#has tag="a, b" author="x" slug="y" number="nth:3" any="title, @site.logo"}}`. */
export function has(this: Obj, options: Options) {
  const hash = options.hash as Obj;
  const attrs = ATTRS.filter((name) => hash[name] !== undefined);
  if (attrs.length === 0) return undefined;
  const data = { site: options.data.site, config: options.data.config, labs: options.data.labs };
  const checks: Record<(typeof ATTRS)[number], () => boolean> = {
    tag: () => {
      const expr = String(hash.tag);
      if (expr.includes('count:')) return count(expr, this.tags);
      const names = ((this.tags as { name: string }[] | undefined) ?? []).map((tag) => tag.name);
      return split(expr).some((wanted) => names.some((name) => new RegExp(`^${escapeRe(name)}$`, 'i').test(wanted)));
    },
    author: () => {
      const expr = String(hash.author);
      if (expr.includes('count:')) return count(expr, this.authors);
      const wanted = split(expr).map((name) => name.toLocaleLowerCase());
      return ((this.authors as { name: string }[] | undefined) ?? []).some((author) => wanted.includes(author.name.toLocaleLowerCase()));
    },
    number: () => Boolean(hash.number) && integerMatch(String(hash.number), options.data.number),
    index: () => Boolean(hash.index) && integerMatch(String(hash.index), options.data.index),
    visibility: () => same(hash.visibility, this.visibility),
    slug: () => same(hash.slug, this.slug),
    id: () => same(hash.id, this.id),
    any: () => Boolean(hash.any) && listMatch('some', String(hash.any), this, data),
    all: () => Boolean(hash.all) && listMatch('every', String(hash.all), this, data),
  };
  return attrs.some((name) => checks[name]()) ? options.fn(this) : options.inverse(this);
}
