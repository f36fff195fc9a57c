import type { SnippetRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { lexicalFromStorage, mobiledocFromStorage } from '../../content/ghost-url.js';

/** A snippet as the Admin API shows it: the source formats asked for (mobiledoc when none were). */
export function presentSnippet(row: Partial<SnippetRow>, siteUrl: string, formats: readonly string[] | null) {
  const keep = formats ?? ['mobiledoc'];
  return {
    id: row.id,
    name: row.name,
    ...(keep.includes('mobiledoc') && 'mobiledoc' in row ? { mobiledoc: mobiledocFromStorage(row.mobiledoc ?? null, siteUrl) } : {}),
    ...(keep.includes('lexical') && 'lexical' in row ? { lexical: lexicalFromStorage(row.lexical ?? null, siteUrl) } : {}),
    created_at: row.created_at === undefined ? undefined : isoDate(row.created_at),
    updated_at: row.updated_at === undefined ? undefined : isoDate(row.updated_at),
  };
}
