import { envOf, relativeTo, truthy, type Options } from './env.js';

/**
 * `{{img_url feature_image size="m" format="webp"}}`: a size from the theme's `image_sizes` turns a local
 * image into its `/size/w600/` variant (served by the images resource); Unsplash images get `w=`/`h=`/`fm=`;
 * other external images stay as they are. Relative unless `absolute="true"`.
 */
export function img_url(this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  if (args.length === 0) return undefined;
  const image = args[0];
  if (image === undefined || image === null) return undefined;
  const env = envOf(options);
  const url = String(image);
  const siteOrigin = env.siteUrl.replace(/\/$/, '');
  const sizes = env.theme.config.image_sizes;
  const size = typeof options.hash.size === 'string' ? sizes[options.hash.size] : undefined;
  const format = typeof options.hash.format === 'string' ? options.hash.format : undefined;
  const internal = url.startsWith('/') || url.startsWith(`${siteOrigin}/`);
  if (!internal) {
    if (/^https:\/\/images\.unsplash\.com\//.test(url)) {
      try {
        const target = new URL(url);
        if (size?.width) target.searchParams.set('w', String(size.width));
        if (size?.height) target.searchParams.set('h', String(size.height));
        if (format) target.searchParams.set('fm', format);
        return target.href;
      } catch {
        return url;
      }
    }
    return url;
  }
  let result = url;
  const match = /^(.*\/content\/images\/)(.*)$/.exec(result);
  if (match && size && !/\.(svg|ico)$/i.test(match[2]!)) {
    const dims = `${size.width ? `w${size.width}` : ''}${size.height ? `h${size.height}` : ''}`;
    const formatPart = format && !/\.(gif)$/i.test(match[2]!) ? `format/${format}/` : '';
    if (dims) result = `${match[1]}size/${dims}/${formatPart}${match[2]}`;
  }
  if (result.startsWith('/')) result = `${siteOrigin}${result}`;
  return truthy(options.hash.absolute) ? result : relativeTo(env.siteUrl, result);
}
