import { sql, type Kysely } from 'kysely';
import type { MigrationFactory } from './factory.js';

/**
 * The full-text index of posts and pages (Quire's Content API search), in each engine's own kind: an FTS5
 * table on SQLite, a tsvector with a GIN index on PostgreSQL, FULLTEXT indexes on MySQL/MariaDB. Triggers
 * on `posts` keep it in step inside the writing transaction, whatever code writes. A post's body is indexed
 * only while the post is public: anonymous readers must not find words they are not allowed to read. At
 * most the first 100,000 characters of a body are indexed (PostgreSQL's tsvector has a 1 MB limit).
 */
const BODY = (row: 'new') => sql.raw(`case when ${row}.visibility = 'public' then substr(${row}.plaintext, 1, 100000) end`);

async function sqliteUp(db: Kysely<any>) {
  // FTS5 rows are found by rowid; a mapping table gives each post a stable one (VACUUM renumbers a table's own rowids).
  await sql`create table posts_search_rows (doc integer primary key autoincrement, post_id varchar(24) not null unique)`.execute(db);
  await sql`create virtual table posts_search using fts5(title, excerpt, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  const doc = (row: 'new' | 'old') => sql.raw(`(select doc from posts_search_rows where post_id = ${row}.id)`);
  const insert = sql`insert into posts_search (rowid, title, excerpt, body) values (${doc('new')}, new.title, new.custom_excerpt, ${BODY('new')});`;
  await sql`create trigger posts_search_insert after insert on posts begin
    insert into posts_search_rows (post_id) values (new.id);
    ${insert}
  end`.execute(db);
  await sql`create trigger posts_search_update after update of title, custom_excerpt, plaintext, visibility on posts begin
    delete from posts_search where rowid = ${doc('old')};
    ${insert}
  end`.execute(db);
  await sql`create trigger posts_search_delete after delete on posts begin
    delete from posts_search where rowid = ${doc('old')};
    delete from posts_search_rows where post_id = old.id;
  end`.execute(db);
  await sql`insert into posts_search_rows (post_id) select id from posts`.execute(db);
  await sql`insert into posts_search (rowid, title, excerpt, body)
    select r.doc, p.title, p.custom_excerpt, case when p.visibility = 'public' then substr(p.plaintext, 1, 100000) end
    from posts p join posts_search_rows r on r.post_id = p.id`.execute(db);
}

async function postgresUp(db: Kysely<any>) {
  // Accents are ignored through the unaccent extension (PostgreSQL's contrib) when the database allows it.
  await sql`do $$ begin create extension if not exists unaccent; exception when others then null; end $$`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'unaccent'`.execute(db);
  const fold = (expression: string) => sql.raw(rows[0]?.n ? `unaccent(${expression})` : expression);
  const document = (row: string) => sql`setweight(to_tsvector('simple', ${fold(`coalesce(${row}title, '')`)}), 'A') ||
    setweight(to_tsvector('simple', ${fold(`coalesce(${row}custom_excerpt, '')`)}), 'B') ||
    setweight(to_tsvector('simple', ${fold(`coalesce(case when ${row}visibility = 'public' then left(${row}plaintext, 100000) end, '')`)}), 'C')`;
  await sql`create table posts_search (post_id varchar(24) primary key, document tsvector not null)`.execute(db);
  await sql`create index posts_search_document_index on posts_search using gin (document)`.execute(db);
  // 'simple': no language's stemming or stop words, so every language is searched alike.
  await sql`create function posts_search_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from posts_search where post_id = old.id;
        return old;
      end if;
      insert into posts_search (post_id, document) values (new.id, ${document('new.')})
      on conflict (post_id) do update set document = excluded.document;
      return new;
    end $$`.execute(db);
  await sql`create trigger posts_search_sync after insert or update of title, custom_excerpt, plaintext, visibility or delete on posts
    for each row execute function posts_search_sync()`.execute(db);
  await sql`insert into posts_search (post_id, document) select id, ${document('')} from posts`.execute(db);
}

async function mysqlUp(db: Kysely<any>) {
  await sql`create table posts_search (
    post_id varchar(24) not null primary key,
    title varchar(2000),
    excerpt varchar(2000),
    body mediumtext,
    fulltext key posts_search_all (title, excerpt, body),
    fulltext key posts_search_title (title)
  ) engine = InnoDB`.execute(db);
  const values = sql`new.id, new.title, new.custom_excerpt, ${BODY('new')}`;
  await sql`create trigger posts_search_insert after insert on posts for each row
    insert into posts_search (post_id, title, excerpt, body) values (${values})`.execute(db);
  await sql`create trigger posts_search_update after update on posts for each row
    replace into posts_search (post_id, title, excerpt, body) values (${values})`.execute(db);
  await sql`create trigger posts_search_delete after delete on posts for each row
    delete from posts_search where post_id = old.id`.execute(db);
  await sql`insert into posts_search (post_id, title, excerpt, body)
    select id, title, custom_excerpt, case when visibility = 'public' then substr(plaintext, 1, 100000) end from posts`.execute(db);
}

export const postsSearch: MigrationFactory = (t) => ({
  async up(db) {
    if (t.fullText === 'fts5') await sqliteUp(db);
    if (t.fullText === 'tsvector') await postgresUp(db);
    if (t.fullText === 'innodb') await mysqlUp(db);
  },
  async down(db) {
    if (t.fullText === 'fts5') {
      for (const trigger of ['posts_search_insert', 'posts_search_update', 'posts_search_delete']) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      await sql`drop table posts_search`.execute(db);
      await sql`drop table posts_search_rows`.execute(db);
    }
    if (t.fullText === 'tsvector') {
      await sql`drop trigger posts_search_sync on posts`.execute(db);
      await sql`drop function posts_search_sync()`.execute(db);
      await sql`drop table posts_search`.execute(db);
    }
    if (t.fullText === 'innodb') {
      for (const trigger of ['posts_search_insert', 'posts_search_update', 'posts_search_delete']) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      await sql`drop table posts_search`.execute(db);
    }
  },
});
