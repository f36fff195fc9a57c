import type { ReadDb } from '../../db/read-db.js';
import type { PostRow } from '../../db/schema.js';

const COLUMNS = ['id', 'uuid', 'title', 'slug', 'status', 'type', 'visibility', 'published_at', 'custom_excerpt', 'plaintext'] as const;

/** What a search result shows of a post. */
export type FoundPost = Pick<PostRow, (typeof COLUMNS)[number]>;

/** The posts the full-text index named, in no particular order. */
export function foundPosts(db: ReadDb, ids: readonly string[]): Promise<FoundPost[]> {
  return ids.length ? db.selectFrom('posts').select(COLUMNS).where('id', 'in', ids).execute() : Promise.resolve([]);
}
