import { objectId } from '../../db/ids.js';
import { slugify } from '../../content/slugs.js';
import type { ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

/**
 * Tags, as Ghost's TagsImporter: a tag whose slug exists here is not imported and posts get the existing
 * tag (silently, as Ghost); the others keep their slug. `importTag` (Ghost's `#Import <date>`) is added to
 * the file's tags so that every imported post can be found afterwards.
 */
export async function importTags(run: ImportRun, importTag: { id: string; name: string; slug: string } | null): Promise<void> {
  const { db } = run.w;
  const fileTags = [...run.rows('tags'), ...(importTag ? [importTag] : [])];
  if (fileTags.length === 0) return;
  const bySlug = new Map((await db.selectFrom('tags').select(['id', 'slug']).execute()).map((tag) => [tag.slug, tag.id]));
  const fresh: Record<string, unknown>[] = [];
  for (const tag of fileTags) {
    const slug = typeof tag.slug === 'string' && tag.slug ? tag.slug : slugify(String(tag.name ?? ''));
    const known = bySlug.get(slug);
    if (known) {
      run.map('tags', tag.id, known);
      continue;
    }
    const id = objectId();
    run.map('tags', tag.id, id);
    bySlug.set(slug, id);
    fresh.push({ ...tag, id, slug });
  }
  await run.insert(
    'tags',
    fresh.map((tag) =>
      run.values(tag, columnsOf('tags'), 'Tag', {
        // Ghost 5 shows no tag hierarchy; a parent id of the old site would point nowhere.
        parent_id: null,
        created_at: run.dateOr(tag.created_at),
        created_by: run.userOf(tag.created_by),
        updated_by: tag.updated_by ? run.userOf(tag.updated_by) : null,
      }),
    ),
  );
}
