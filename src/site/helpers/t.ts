import { envOf, type Options } from './env.js';

/** `{{t "Read more"}}`: the theme's `locales/<locale>.json` translation, else the text, with `{name}` bindings. */
export function t(this: unknown, text: unknown, options: Options) {
  if (!text || String(text).length === 0) return '';
  const env = envOf(options);
  let out = env.theme.translate(String(text), String(env.site.locale ?? 'en'));
  for (const [key, value] of Object.entries(options.hash ?? {})) out = out.split(`{${key}}`).join(String(value));
  return out;
}
