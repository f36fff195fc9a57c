import { SafeString, envOf, relativeTo, truthy, type Options } from './env.js';

/** The absolute or relative URL of the thing in context: a post, tag, author, navigation item or the site. */
export function urlOf(self: Record<string, unknown>, siteUrl: string, absolute: boolean): string {
  let out: string;
  if (typeof self.url === 'string' && (self.slug !== undefined || 'label' in self)) {
    out = self.url;
    if ('label' in self && out.startsWith('/') && !out.startsWith('//')) out = `${siteUrl.replace(/\/$/, '')}${out}`;
  } else if (typeof self.url === 'string') out = self.url;
  else out = siteUrl;
  if (!absolute) out = relativeTo(siteUrl, out);
  return out;
}

export function url(this: Record<string, unknown>, options: Options) {
  const out = urlOf(this, envOf(options).siteUrl, truthy(options.hash.absolute));
  try {
    return new SafeString(encodeURI(decodeURI(out)).replace(/%5B/g, '[').replace(/%5D/g, ']'));
  } catch {
    return new SafeString('');
  }
}
