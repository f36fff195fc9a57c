import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support.js';
import { seedSnapshot } from '../../test/browse/seed.js';
import { GhostError } from '../errors.js';
import { filterWhere, type FilterRules } from './filter.js';
import { POSTS_FILTER } from '../resources/posts/posts.filter.js';

// Engine-level checks of the compiler on the seeded posts tables; the HTTP suite (test/browse) compares
// whole requests with the reference Ghost.
let database: TestDatabase;
let connection: Connection;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connect(database.url, { poolSize: 2 });
  await migrateToLatest(connection);
  await seedSnapshot(connection.db);
});

afterAll(async () => {
  await connection?.close();
  await database?.drop();
});

const POSTS: FilterRules = { wrap: true, extra: 'type:post+status:published' };

async function slugs(filter: string | undefined, rules: FilterRules = POSTS): Promise<string[]> {
  const where = filterWhere(POSTS_FILTER, connection.engine, filter, rules);
  let query = connection.db.selectFrom('posts').select('slug').orderBy('slug');
  if (where) query = query.where(where);
  return (await query.execute()).map((row) => row.slug);
}

async function failure(filter: string, rules: FilterRules = POSTS): Promise<GhostError> {
  try {
    await slugs(filter, rules);
  } catch (err) {
    if (err instanceof GhostError) return err;
    throw err;
  }
  throw new Error(`no error for ${filter}`);
}

describe('filter compiler on the posts tables', () => {
  it('compares columns with each operator', async () => {
    expect(await slugs('featured:true')).toEqual(['featured-two', 'hello-world', 'paid-post']);
    expect(await slugs('featured:1')).toEqual(['featured-two', 'hello-world', 'paid-post']);
    expect(await slugs('visibility:-public')).toEqual(['members-only', 'paid-post']);
    expect(await slugs("published_at:<'2024-01-15'")).toEqual(['hello-again', 'hello-world', 'old-news']);
    expect(await slugs("published_at:>='2024-02-06 09:00:00'")).toEqual(['featured-two', 'multi-author', 'no-tags']);
    expect(await slugs('slug:[pure,snake,nope]')).toEqual(['pure', 'snake']);
    expect(await slugs('slug:-[pure,snake]+published_at:>2024-02-01')).toEqual(['apple-pie', 'featured-two', 'multi-author', 'no-tags', 'zebra-crossing']);
    expect(await slugs('custom_excerpt:null+published_at:>2024-02-02')).toEqual(['apple-pie', 'featured-two', 'no-tags', 'zebra-crossing']);
    expect(await slugs('custom_excerpt:-null')).toEqual(['hello-caps', 'multi-author', 'quoted']);
  });

  it('is case-sensitive for equality and case-insensitive for ~ on every engine', async () => {
    expect(await slugs("title:'hello again'")).toEqual(['hello-again']);
    expect(await slugs("title:'HELLO AGAIN'")).toEqual([]);
    expect(await slugs("title:~'hello'")).toEqual(['hello-again', 'hello-caps', 'hello-world']);
    expect(await slugs("title:~^'HEL'")).toEqual(['hello-again', 'hello-caps', 'hello-world']);
    expect(await slugs("title:~$'POST'")).toEqual(['backslash', 'paid-post']);
    expect(await slugs("title:~'ärger'")).toEqual(['unicode']);
    expect(await slugs("title:-~'e'")).toEqual(['backslash', 'multi-author', 'no-tags', 'paid-post']);
  });

  it('escapes LIKE wildcards and keeps quotes and backslashes literal', async () => {
    expect(await slugs("title:~'100%'")).toEqual(['pure']);
    expect(await slugs("title:~'%'")).toEqual(['pure']);
    expect(await slugs("title:~'_'")).toEqual(['snake']);
    expect(await slugs("title:~'it\\'s'")).toEqual(['quoted']);
    expect(await slugs("title:~'k\\s'")).toEqual(['backslash']);
    expect(await slugs("title:~'!'")).toEqual([]);
  });

  it('filters through relations without duplicating rows', async () => {
    expect(await slugs('tag:tech')).toEqual(['hello-again', 'hello-world', 'members-only', 'multi-author', 'snake']);
    expect(await slugs('tag:[tech,news]')).toEqual([
      'hello-again',
      'hello-caps',
      'hello-world',
      'internal-first',
      'members-only',
      'multi-author',
      'old-news',
      'quoted',
      'snake',
    ]);
    expect(await slugs('tag:tech+tag:news')).toEqual(['hello-world', 'multi-author']);
    expect(await slugs('tags.slug:travel+tags.description:Trips')).toEqual(['apple-pie', 'featured-two', 'hello-caps', 'multi-author', 'paid-post']);
    expect(await slugs('tags.slug:news+tags.description:Trips')).toEqual([]);
    expect(await slugs('primary_tag:news')).toEqual(['hello-world', 'old-news', 'quoted']);
    expect(await slugs('primary_tag:hash-internal')).toEqual([]);
    expect(await slugs('primary_author:bob')).toEqual(['backslash', 'hello-again', 'no-tags', 'paid-post', 'pure']);
    expect(await slugs('author:bob+author:alice')).toEqual(['hello-again', 'multi-author', 'old-news']);
    expect(await slugs("authors.name:~^'car'")).toEqual(['internal-first', 'multi-author', 'snake', 'unicode', 'zebra-crossing']);
  });

  it('negates relations with NOT EXISTS', async () => {
    const all = await slugs(undefined);
    const withTech = await slugs('tag:tech');
    expect(await slugs('tag:-tech')).toEqual(all.filter((slug) => !withTech.includes(slug)));
    expect(await slugs('tag:-[tech,news]+author:alice')).toEqual(['apple-pie', 'featured-two']);
  });

  it('reaches posts_meta, including posts without a meta row', async () => {
    expect(await slugs("meta_title:'Meta Hello'")).toEqual(['hello-world']);
    expect(await slugs("posts_meta.meta_title:~'meta'")).toEqual(['apple-pie', 'hello-world', 'paid-post']);
    expect(await slugs('meta_title:-null')).toEqual(['apple-pie', 'hello-world', 'paid-post']);
    expect((await slugs('meta_title:null')).length).toBe((await slugs(undefined)).length - 3);
    expect(await slugs("email_subject:-'Subject CAPS'+published_at:<2024-01-16")).toEqual(['hello-again', 'hello-world', 'old-news']);
  });

  it('groups with parentheses, AND binding tighter than OR', async () => {
    expect(await slugs('featured:true,tag:apple+author:bob')).toEqual(['featured-two', 'hello-world', 'old-news', 'paid-post']);
    expect(await slugs('(featured:true,tag:apple)+author:bob')).toEqual(['old-news', 'paid-post']);
    expect(await slugs('((featured:true))')).toEqual(['featured-two', 'hello-world', 'paid-post']);
  });

  it('resolves relative dates', async () => {
    expect(await slugs('published_at:>now-1d')).toEqual([]);
    expect(await slugs('published_at:<now-3y')).toEqual(['old-news']);
  });

  it('enforced filters cannot be widened', async () => {
    const rules: FilterRules = { wrap: true, extra: 'type:post', enforced: 'status:published' };
    const published = await slugs(undefined, rules);
    expect(await slugs('status:draft', rules)).toEqual(published);
    expect(await slugs('status:-draft,featured:true', rules)).toEqual(['featured-two', 'hello-world', 'paid-post']);
    expect(await slugs('featured:true),(type:page', rules)).toEqual(['featured-two', 'hello-world', 'paid-post']);
  });

  it('answers Ghost errors for bad syntax, unknown columns and impossible values', async () => {
    for (const filter of ['tag:a', 'title:Hello World', "title:'unterminated", 'tag:[ab,c]', '+', 'a:', '(']) {
      const err = await failure(filter);
      expect([err.status, err.message], filter).toEqual([400, 'Error parsing filter']);
    }
    for (const [filter, field] of [
      ['nope:1', 'nope'],
      ['tags.nope:1', 'tags.nope'],
      ['posts.nope:1', 'posts.nope'],
      ['other.slug:xx', 'other.slug'],
      ['constructor:1', 'constructor'],
      ['hasOwnProperty:1', 'hasOwnProperty'],
    ]) {
      const err = await failure(filter!);
      // Ghost puts the driver's code here (SQLITE_ERROR, 42703…): the field is named instead, on every engine.
      expect([err.status, err.message, err.context, err.code], filter).toEqual([
        400,
        'Could not understand request.',
        `Unknown filter field '${field}'.`,
        'UNKNOWN_FILTER_FIELD',
      ]);
      expect(err.help).toMatch(/^Fields posts can be filtered on: id, .*title, .*tags\.<field>/);
    }
    expect((await failure(`${'x'.repeat(500)}:1`)).context).toBe(`Unknown filter field '${'x'.repeat(100)}…'.`);
    for (const filter of ['featured:maybe', "published_at:>'soon'", "published_at:~'2024'", 'published_at:>2024']) {
      const err = await failure(filter);
      expect([err.status, err.message], filter).toEqual([422, 'Invalid value']);
    }
  });

  it('parses `__proto__:` into nothing, as Ghost does, without touching prototypes', async () => {
    expect(await slugs('__proto__:1')).toEqual(await slugs(undefined));
    expect(await slugs('__proto__:1+featured:true')).toEqual(['featured-two', 'hello-world', 'paid-post']);
  });

  it('lets the single-letter lexer quirk through where Ghost does not wrap', async () => {
    expect(await slugs('slug:a', { extra: 'type:post' })).toEqual([]);
    expect((await failure('slug:a')).message).toBe('Error parsing filter');
  });
});
