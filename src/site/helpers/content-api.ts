import { SafeString, envOf, type Options } from './env.js';

/** `{{content_api_key}}`: the site's own Content API key (the one Portal and search use). */
export function content_api_key(this: unknown, options: Options) {
  return new SafeString(String(options.data.root._contentKey ?? ''));
}

/** `{{content_api_url}}`: the Content API's root on this site. */
export function content_api_url(this: unknown, options: Options) {
  return new SafeString(`${envOf(options).siteUrl}ghost/api/content/`);
}
