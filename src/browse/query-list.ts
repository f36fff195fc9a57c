/** A comma list as the api-framework reads it (repeated parameters joined): trimmed, lower-cased; null when absent. */
export function queryList(raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  const text = (Array.isArray(raw) ? raw.join(',') : String(raw)).trim().toLowerCase();
  return text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}
