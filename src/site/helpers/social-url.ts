import type { Options } from './env.js';

const URLS: Record<string, (name: string) => string> = {
  twitter: (name) => `https://x.com/${name.replace(/^@/, '')}`,
  x: (name) => `https://x.com/${name.replace(/^@/, '')}`,
  facebook: (name) => `https://www.facebook.com/${name.replace(/^\//, '')}`,
  threads: (name) => `https://www.threads.net/@${name.replace(/^@/, '')}`,
  bluesky: (name) => `https://bsky.app/profile/${name}`,
  mastodon: (name) => `https://${name}`,
  tiktok: (name) => `https://www.tiktok.com/${name.startsWith('@') ? name : `@${name}`}`,
  youtube: (name) => `https://www.youtube.com/${name}`,
  instagram: (name) => `https://www.instagram.com/${name}`,
  linkedin: (name) => `https://www.linkedin.com/${['in/', 'company/', 'school/', 'pub/'].some((p) => name.startsWith(p)) ? name : `in/${name}`}`,
};

/** The value of `key` in the context, else on the site (Ghost's `findKey`), when not empty. */
export function findKey(key: string, self: unknown, site: unknown): string | null {
  for (const source of [self, site]) {
    const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** `{{social_url type="facebook"}}`: the profile URL of the author in context, or of the site. */
export function social_url(this: unknown, options: Options) {
  const platform = options?.hash?.type as string | undefined;
  if (!platform || !options.data?.site) return null;
  const name = findKey(platform, this, options.data.site);
  const make = URLS[platform];
  return name && make ? make(name) : null;
}

export function twitter_url(this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  const name = args.length > 0 ? (args[0] as string) : findKey('twitter', this, options.data.site);
  return name ? URLS.twitter!(name) : null;
}

export function facebook_url(this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  const name = args.length > 0 ? (args[0] as string) : findKey('facebook', this, options.data.site);
  return name ? URLS.facebook!(name) : null;
}
