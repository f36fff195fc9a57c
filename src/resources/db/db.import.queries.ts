import type { ReadDb } from '../../db/read-db.js';

/** The site's newsletters, by their order, for names a members CSV gives. */
export function newslettersForCsv(db: ReadDb) {
  return db.selectFrom('newsletters').select(['id', 'name', 'status', 'subscribe_on_signup']).orderBy('sort_order').execute();
}

/** The site's tiers, oldest first, so the default paid tier is the first active one. */
export function tiersForCsv(db: ReadDb) {
  return db.selectFrom('products').select(['id', 'name', 'type', 'active']).orderBy('created_at').orderBy('id').execute();
}

export function benefitSlugs(db: ReadDb): Promise<{ id: string; slug: string }[]> {
  return db.selectFrom('benefits').select(['id', 'slug']).execute();
}

export function offerCodesAndNames(db: ReadDb) {
  return db.selectFrom('offers').select(['code', 'name']).execute();
}

export function snippetNames(db: ReadDb): Promise<{ name: string }[]> {
  return db.selectFrom('snippets').select('name').execute();
}
