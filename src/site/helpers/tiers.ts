import { SafeString, escape, type Options } from './env.js';

/** `{{tiers}}`: the post's tiers as "Gold tier" or "Silver and Gold tiers" (`separator`, `lastSeparator`, `prefix`, `suffix`). */
export function tiers(this: Record<string, unknown>, options: Options) {
  const hash = (options?.hash ?? {}) as Record<string, unknown>;
  const str = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const list = (this.tiers as { name: string }[] | undefined) ?? [];
  let output = '';
  let suffix = str(hash.suffix, '');
  if (list.length > 0) {
    const names = list.map((tier) => escape(tier.name));
    if (names.length === 1) {
      output = names[0]!;
      suffix = str(hash.suffix, ' tier');
    } else {
      suffix = str(hash.suffix, ' tiers');
      output = names.slice(0, -1).join(str(hash.separator, ', ')) + str(hash.lastSeparator, ' and ') + names[names.length - 1];
    }
  }
  if (output) output = str(hash.prefix, '') + output + suffix;
  return new SafeString(output);
}
