import { errors } from '../errors.js';

/**
 * Browse options whose machinery (NQL filters, custom order, field selection) is not wired to an
 * endpoint yet. They are refused out loud rather than ignored: a client asking for a filtered list must
 * never receive an unfiltered one.
 */
export function refuseUnsupportedOptions(query: Record<string, unknown>, names: readonly string[] = ['filter', 'order', 'fields']): void {
  for (const name of names) {
    if (query[name] !== undefined && query[name] !== '') {
      throw errors.badRequest(`The "${name}" option is not supported by this endpoint yet.`);
    }
  }
}
