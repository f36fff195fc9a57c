/**
 * A bounded memo for helpers whose output depends only on their input (a date's format, an excerpt's cut):
 * the same posts render on page after page, so their formatted parts are made once. The oldest entries go
 * first past `limit`.
 */
export function boundedMemo<T>(limit: number): (key: string, make: () => T) => T {
  const kept = new Map<string, T>();
  return (key, make) => {
    const found = kept.get(key);
    if (found !== undefined) return found;
    const value = make();
    if (kept.size >= limit) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}
