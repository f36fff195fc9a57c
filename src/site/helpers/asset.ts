import { GhostError } from '../../errors.js';
import { SafeString, envOf, type Options } from './env.js';

/** `{{asset "css/screen.css"}}` → `/assets/css/screen.css?v=<hash>`; `hasMinFile` serves `.min` files; `public/…` is ours. */
export function asset(this: unknown, file: unknown, options: Options) {
  if (!file || typeof file !== 'string') throw new GhostError('IncorrectUsageError', { message: 'The {{asset}} helper must be passed a path' });
  const env = envOf(options);
  let target = file.replace(/^\//, '');
  if (options.hash.hasMinFile && !target.startsWith('public/')) target = target.replace(/\.(css|js)$/, '.min.$1');
  const base = env.siteUrl.replace(/^https?:\/\/[^/]+/, '');
  const url = target.startsWith('public/') ? `${base}${target}` : `${base}assets/${target}`;
  return new SafeString(`${url}?v=${env.theme.assetHash}`);
}
