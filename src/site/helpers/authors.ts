import type Handlebars from 'handlebars';
import { SafeString, envOf, escape, relativeTo, type Options } from './env.js';
import { visible } from './visibility.js';

type Named = { name: string; url?: string; slug?: string };

/** A comma-separated list of names, linked unless `autolink="false"`, with `separator`, `prefix`, `suffix`, `limit`, `from`, `to`. */
export function nameList(self: { list?: Named[] }, options: Options, fallbackVisibility?: string): Handlebars.SafeString {
  const hash = (options.hash ?? {}) as Record<string, string | undefined>;
  const autolink = hash.autolink !== 'false';
  const separator = hash.separator ?? ', ';
  const limit = hash.limit ? parseInt(hash.limit, 10) : undefined;
  let from = hash.from ? parseInt(hash.from, 10) : 1;
  let to = hash.to ? parseInt(hash.to, 10) : undefined;
  let output = '';
  const siteUrl = envOf(options).siteUrl;
  if (self.list && self.list.length) {
    const items = (visible(self.list, hash.visibility ?? fallbackVisibility) as Named[]).map((item) =>
      autolink ? `<a href="${relativeTo(siteUrl, item.url ?? '')}">${escape(item.name)}</a>` : escape(item.name),
    );
    from -= 1;
    to = to || (limit !== undefined ? limit + from : undefined) || items.length;
    output = items.slice(from, to).join(separator);
  }
  if (output) output = (hash.prefix ?? '') + output + (hash.suffix ?? '');
  return new SafeString(output);
}

export function authors(this: Record<string, unknown>, options: Options) {
  return nameList({ list: this.authors as Named[] | undefined }, options, 'all');
}

export function tags(this: Record<string, unknown>, options: Options) {
  return nameList({ list: this.tags as Named[] | undefined }, options);
}
