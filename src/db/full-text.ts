import { sql, type RawBuilder } from 'kysely';
import type { ReadDb } from './read-db.js';
import type { ColumnTypes } from './engine.js';

/**
 * Queries of the posts full-text index (migration 0011) in each engine's own dialect. Feature code hands
 * over words (letters and digits only, so no engine's query syntax can be injected) and gets ranked post
 * ids; every value is a bound parameter.
 */
export interface SearchWords {
  /** Lower-case words every match must contain. */
  all: readonly string[];
  /** The last word is also matched as a prefix (search as you type). */
  prefixLast: boolean;
}

export interface SearchPage {
  limit: number;
  offset: number;
}

export interface SearchHit {
  id: string;
  /** Higher is better; comparable within one engine only. */
  rank: number;
}

// InnoDB's default stop words and minimum word length (3): such words in a query would match nothing.
const INNODB_STOP_WORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(' '),
);

interface Dialect {
  /** The words the engine's index can find (the others are dropped from the query). */
  usable(words: SearchWords): SearchWords;
  /** Matching published rows of `type`: `id` and `rank`, in the form of a from+where fragment and a rank expression. */
  query(words: SearchWords): { from: RawBuilder<unknown>; rank: RawBuilder<number>; order: 'asc' | 'desc' };
}

const fts5: Dialect = {
  usable: (words) => words,
  query({ all, prefixLast }) {
    const match = all.map((word, i) => `"${word}"${prefixLast && i === all.length - 1 ? '*' : ''}`).join(' ');
    return {
      // CROSS JOIN fixes SQLite's join order: the match first, then each hit's post. Left to itself the
      // planner walks every published post and runs the match once per post (70 ms for a word found once,
      // 670 ms for a prefix over 5,000 posts, against 0.1 ms and 8 ms this way).
      from: sql`posts_search s cross join posts_search_rows r on r.doc = s.rowid cross join posts p on p.id = r.post_id where posts_search match ${match}`,
      // bm25 is lower for better matches; the title weighs most, then the excerpt.
      rank: sql<number>`bm25(posts_search, 10.0, 4.0, 1.0)`,
      order: 'asc',
    };
  },
};

const tsvector: Dialect = {
  usable: (words) => words,
  query({ all, prefixLast }) {
    const match = all.map((word, i) => `${word}${prefixLast && i === all.length - 1 ? ':*' : ''}`).join(' & ');
    return {
      from: sql`posts_search s join posts p on p.id = s.post_id where s.document @@ to_tsquery('simple', ${match})`,
      rank: sql<number>`ts_rank_cd(s.document, to_tsquery('simple', ${match}))`,
      order: 'desc',
    };
  },
};

const innodb: Dialect = {
  usable: ({ all, prefixLast }) => {
    const last = all.length - 1;
    // A prefix may be short; a whole word must be indexable.
    const kept = all.filter((word, i) => (prefixLast && i === last) || (word.length >= 3 && !INNODB_STOP_WORDS.has(word)));
    return { all: kept, prefixLast: prefixLast && kept[kept.length - 1] === all[last] };
  },
  query({ all, prefixLast }) {
    const match = all.map((word, i) => `+${word}${prefixLast && i === all.length - 1 ? '*' : ''}`).join(' ');
    return {
      from: sql`posts_search s join posts p on p.id = s.post_id where match (s.title, s.excerpt, s.body) against (${match} in boolean mode)`,
      rank: sql<number>`(10 * match (s.title) against (${match} in boolean mode) + match (s.title, s.excerpt, s.body) against (${match} in boolean mode))`,
      order: 'desc',
    };
  },
};

const DIALECTS: Record<ColumnTypes['fullText'], Dialect> = { fts5, tsvector, innodb };

/** Published posts (or pages) matching every word, best first, and how many match in all. */
export async function searchPublished(
  db: ReadDb,
  kind: ColumnTypes['fullText'],
  type: 'post' | 'page',
  words: SearchWords,
  page: SearchPage,
): Promise<{ hits: SearchHit[]; total: number }> {
  const dialect = DIALECTS[kind];
  // Every index holds text without accents (FTS5's remove_diacritics, unaccent, MySQL's accent-insensitive collations).
  const bare = words.all.map((word) => word.normalize('NFD').replace(/\p{M}/gu, ''));
  const usable = dialect.usable({ ...words, all: bare });
  if (usable.all.length === 0) return { hits: [], total: 0 };
  const { from, rank, order } = dialect.query(usable);
  const scope = sql`p.status = 'published' and p.type = ${type}`;
  const [rows, count] = await Promise.all([
    sql<{ id: string; rank: number }>`select p.id as id, ${rank} as rank from ${from} and ${scope}
      order by rank ${sql.raw(order)}, p.published_at desc, p.id desc limit ${page.limit} offset ${page.offset}`.execute(db),
    sql<{ n: number | string }>`select count(*) as n from ${from} and ${scope}`.execute(db),
  ]);
  return {
    hits: rows.rows.map((row) => ({ id: row.id, rank: order === 'asc' ? -Number(row.rank) : Number(row.rank) })),
    total: Number(count.rows[0]?.n ?? 0),
  };
}
