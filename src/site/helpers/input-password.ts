import Handlebars from 'handlebars';
import type { Options } from './env.js';

/** `{{input_password}}`: the password field of a private site's `private.hbs` (Ghost's private-blogging helper). */
export function input_password(options: Options) {
  const hash = (options?.hash ?? {}) as Record<string, unknown>;
  const className = hash.class ? String(hash.class) : 'private-login-password';
  let extras = 'autofocus="autofocus"';
  if (hash.placeholder) extras += ` placeholder="${String(hash.placeholder)}"`;
  return new Handlebars.SafeString(`<input class="${className}" type="password" name="password" ${extras} />`);
}
