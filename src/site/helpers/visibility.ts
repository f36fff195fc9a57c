/**
 * Ghost's visibility filter for lists (`@tryghost/helpers` utils.visibility): by default only `public` items
 * are kept; `visibility="all"` keeps every item, and a list of values keeps those. Items without a
 * visibility are always kept.
 */
export function visible(items: unknown, visibility: string | undefined): unknown {
  if (!items || typeof items !== 'object') return items;
  const wanted = (visibility ?? 'public').split(',').map((value) => value.trim());
  if (wanted.includes('all')) return items;
  const keep = (item: unknown) => {
    const value = item && typeof item === 'object' ? (item as { visibility?: unknown }).visibility : undefined;
    return value === undefined || wanted.includes(String(value));
  };
  if (Array.isArray(items)) return items.filter(keep);
  return Object.fromEntries(Object.entries(items).filter(([, item]) => keep(item)));
}
