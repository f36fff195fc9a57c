import { sql } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { ReadDb } from '../../db/read-db.js';
import type { PostRow } from '../../db/schema.js';
import type { PostType } from './posts.schemas.js';
import { CONTENT_HIDDEN_COLUMNS, POST_FIELDS } from './posts.fields.js';
import type { PostKey } from './posts.queries.js';

// The Content API's reads of a post: the columns it shows, plaintext only as far as the excerpt needs it.

const CONTENT_COLUMNS = (Object.keys(POST_FIELDS) as (keyof PostRow)[]).filter((column) => !CONTENT_HIDDEN_COLUMNS.includes(column));

/**
 * The start of plaintext the excerpt is cut from (excerptOf: its first 500 UTF-16 units once `__GHOST_URL__` is
 * expanded). EXCERPT_SOURCE_CHARS characters (what substr counts on every engine) are at least as many units,
 * and expanding changes nothing before the first marker: read whole when a marker starts within them (`_` in
 * the pattern is any one character, so every marker matches it), the text up to the cut is the column's own.
 */
const EXCERPT_SOURCE_CHARS = 600;
export const excerptSource = (column: string) => {
  const start = sql`substr(${sql.ref(column)}, 1, ${sql.lit(EXCERPT_SOURCE_CHARS)})`;
  return sql`case when ${start} like '%GHOST_URL%' then ${sql.ref(column)} else ${start} end`;
};

type PublishedKey = 'id' | 'slug' | 'uuid';
const publishedQuery = (key: PublishedKey, wholePlaintext: boolean) =>
  preparedQuery((db, $: { type: PostType; value: string }) =>
    db
      .selectFrom('posts')
      .select(
        CONTENT_COLUMNS.map((column) => (column === 'plaintext' && !wholePlaintext ? excerptSource('posts.plaintext') : sql.ref(`posts.${column}`)).as(column)),
      )
      .where('posts.type', '=', $.type)
      .where('posts.status', '=', 'published')
      .where(`posts.${key}`, '=', $.value),
  );
const PUBLISHED_QUERIES = new Map(
  (['id', 'slug', 'uuid'] as const).flatMap((key) => [
    [`${key} whole`, publishedQuery(key, true)],
    [`${key} excerpt`, publishedQuery(key, false)],
  ]),
);

/**
 * A published post or page by key, with the columns the Content API shows (the others null); plaintext only
 * as far as its excerpt needs unless `wholePlaintext`.
 */
export async function findPublishedPost(
  db: ReadDb,
  key: PostKey,
  type: PostType,
  { wholePlaintext }: { wholePlaintext: boolean },
): Promise<PostRow | undefined> {
  const name: PublishedKey = 'id' in key ? 'id' : 'slug' in key ? 'slug' : 'uuid';
  const value = 'id' in key ? key.id : 'slug' in key ? key.slug : key.uuid;
  const [row] = await PUBLISHED_QUERIES.get(`${name} ${wholePlaintext ? 'whole' : 'excerpt'}`)!(db, { type, value });
  return row ? ({ ...HIDDEN_AS_NULL, ...row } as PostRow) : undefined;
}

const HIDDEN_AS_NULL = Object.fromEntries(CONTENT_HIDDEN_COLUMNS.map((column) => [column, null]));
