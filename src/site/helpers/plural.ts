import { GhostError } from '../../errors.js';
import { SafeString, type Options } from './env.js';

/** `{{plural count empty="No posts" singular="% post" plural="% posts"}}`. */
export function plural(this: unknown, number: unknown, options: Options) {
  const hash = options.hash as Record<string, string | undefined>;
  if (hash.empty === undefined || hash.singular === undefined || hash.plural === undefined)
    throw new GhostError('IncorrectUsageError', { message: 'All values must be defined for empty, singular and plural' });
  if (number === 0) return new SafeString(hash.empty.replace('%', '0'));
  if (number === 1) return new SafeString(hash.singular.replace('%', '1'));
  if ((number as number) >= 2) return new SafeString(hash.plural.replace('%', String(number)));
  return undefined;
}
