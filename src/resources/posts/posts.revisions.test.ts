import { describe, expect, it } from 'vitest';
import { first } from '../../../test/posts-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { lexicalOf } from '../../../test/factories.js';
import { revisionReason } from './posts.revisions.js';

const t = useTestSite({ caller: 'integration' });

describe('post revisions', () => {
  it('records the first save, explicit saves, publishing and unpublishing; include=post_revisions shows them', async () => {
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Revised', lexical: lexicalOf('one') }] }), 'posts');
    let current = post;
    const edit = async (fields: Record<string, unknown>, query = '') => {
      current = first(await t.admin.put(`/posts/${post.id}/${query}`, { posts: [{ ...fields, updated_at: current.updated_at }] }), 'posts');
    };
    await edit({ lexical: lexicalOf('two') });
    await edit({ lexical: lexicalOf('three') }, '?save_revision=true');
    await edit({ status: 'published' });
    await edit({ status: 'draft' });
    const read = first(await t.admin.get(`/posts/${post.id}/?include=post_revisions,post_revisions.author`), 'posts');
    expect(read.post_revisions.map((r: { reason: string; post_status: string }) => `${r.reason}/${r.post_status}`)).toEqual([
      'initial_revision/draft',
      'explicit_save/draft',
      'published/published',
      'unpublished/draft',
    ]);
    const revision = read.post_revisions[1];
    expect(JSON.parse(revision.lexical).root.children[0].children[0].text).toBe('three');
    expect(revision).toMatchObject({ post_id: post.id, title: 'Revised', author: { id: '1', slug: 'owner' } });
    expect(typeof revision.created_at_ts).toBe('number');
    const plain = first(await t.admin.get(`/posts/${post.id}/?include=post_revisions`), 'posts');
    expect(plain.post_revisions[0]).not.toHaveProperty('author');
  });

  it('keeps the 25 latest revisions', async () => {
    let post = first(await t.admin.post('/posts/', { posts: [{ title: 'Busy', status: 'published' }] }), 'posts');
    for (let i = 0; i < 26; i++) {
      post = first(await t.admin.put(`/posts/${post.id}/`, { posts: [{ title: `Busy ${i}`, updated_at: post.updated_at }] }), 'posts');
    }
    const rows = await t.connection.db.selectFrom('post_revisions').select('title').where('post_id', '=', post.id).execute();
    expect(rows).toHaveLength(25);
    expect(rows.map((row) => row.title)).toContain('Busy 25');
  });

  it('mobiledoc posts have none', async () => {
    const mobiledoc = JSON.stringify({ version: '0.3.1', atoms: [], cards: [], markups: [], sections: [[1, 'p', [[0, [], 0, 'x']]]] });
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Legacy', mobiledoc }] }), 'posts');
    expect(first(await t.admin.get(`/posts/${post.id}/?include=post_revisions`), 'posts').post_revisions).toEqual([]);
  });

  it('background saves wait ten minutes after the latest revision', () => {
    const snapshot = {
      postId: 'p',
      lexical: 'new',
      title: 't',
      featureImage: null,
      featureImageAlt: null,
      featureImageCaption: null,
      customExcerpt: null,
      status: 'draft',
      authorId: '1',
    };
    const latest = { lexical: 'old', title: 't', feature_image: null, custom_excerpt: null, created_at_ts: Date.now() - 60_000 } as never;
    expect(revisionReason(snapshot, latest, { previousStatus: 'draft', force: false }, Date.now())).toBeNull();
    const old = { lexical: 'old', title: 't', feature_image: null, custom_excerpt: null, created_at_ts: Date.now() - 11 * 60_000 } as never;
    expect(revisionReason(snapshot, old, { previousStatus: 'draft', force: false }, Date.now())).toBe('background_save');
    expect(revisionReason({ ...snapshot, lexical: 'old' }, old, { previousStatus: 'draft', force: true }, Date.now())).toBeNull();
  });
});
