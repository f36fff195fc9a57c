import { envOf, type Options } from './env.js';

/** `{{#is "home, paged"}}`: whether the page's context has any of the names. */
export function is(this: unknown, names: unknown, options: Options) {
  if (typeof names !== 'string') return undefined;
  const context = envOf(options).context;
  const hit = names.split(',').some((name) => context.includes(name.trim()));
  return hit ? options.fn(this) : options.inverse(this);
}
