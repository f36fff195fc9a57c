import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, ghostError, startTestApp, type TestApp } from '../../../test/support.js';
import { client, createStaff, first, type Keys } from '../../../test/posts-support.js';

let t: TestApp;
let keys: Keys;
let api: ReturnType<typeof client>;
type As = ReturnType<ReturnType<typeof client>['as']>;
let contributor: { id: string; as: As };
let author: { id: string; as: As };
let editor: { id: string; as: As };

beforeAll(async () => {
  t = await startTestApp();
  keys = await bootstrap(t.app);
  api = client(t, keys);
  const staff = async (role: 'Contributor' | 'Author' | 'Editor') => {
    const user = await createStaff(t, role);
    return { id: user.id, as: api.as(user.cookie) };
  };
  contributor = await staff('Contributor');
  author = await staff('Author');
  editor = await staff('Editor');
});
afterAll(async () => { await t.close(); });

const denied = (res: { statusCode: number }, message: string) => {
  expect(res.statusCode).toBe(403);
  expect(ghostError(res as never)).toMatchObject({ type: 'NoPermissionError', message, context: 'You do not have permission to perform this action' });
};
const ownerPost = async (fields: Record<string, unknown> = {}) => first(await api.admin('POST', '/posts/', { posts: [{ title: 'Owner post', ...fields }] }), 'posts');

describe('Contributors', () => {
  it('add only their own drafts, naming themselves first; tags are dropped', async () => {
    denied(await contributor.as('POST', '/posts/', { posts: [{ title: 'No authors' }] }), 'Permission error, cannot save post.');
    denied(await contributor.as('POST', '/posts/', { posts: [{ title: 'Live', status: 'published', authors: [{ id: contributor.id }] }] }), 'Permission error, cannot save post.');
    const res = await contributor.as('POST', '/posts/', { posts: [{ title: 'My draft', tags: ['Dropped'], authors: [{ id: contributor.id }] }] });
    expect(res.statusCode).toBe(201);
    const post = first(res, 'posts');
    expect(post.tags).toEqual([]);
    expect(post.authors.map((a: { id: string }) => a.id)).toEqual([contributor.id]);
  });

  it('edit their own drafts without changing the status; delete only their own drafts', async () => {
    const post = first(await contributor.as('POST', '/posts/', { posts: [{ title: 'Draft two', authors: [{ id: contributor.id }] }] }), 'posts');
    const edited = await contributor.as('PUT', `/posts/${post.id}/`, { posts: [{ title: 'Draft 2', tags: ['Ignored'], updated_at: post.updated_at }] });
    expect(edited.statusCode).toBe(200);
    expect(first(edited, 'posts')).toMatchObject({ title: 'Draft 2', tags: [] });
    denied(await contributor.as('PUT', `/posts/${post.id}/`, { posts: [{ status: 'published', updated_at: post.updated_at }] }), 'Permission error, cannot edit post.');
    const other = await ownerPost();
    denied(await contributor.as('PUT', `/posts/${other.id}/`, { posts: [{ title: 'Mine now', updated_at: other.updated_at }] }), 'Permission error, cannot edit post.');
    denied(await contributor.as('DELETE', `/posts/${other.id}/`), 'Permission error, cannot delete post.');
    expect((await contributor.as('DELETE', `/posts/${post.id}/`)).statusCode).toBe(204);
  });

  it('cannot copy posts or use bulk actions', async () => {
    const post = await ownerPost();
    const copy = await contributor.as('POST', `/posts/${post.id}/copy/`);
    expect(copy.statusCode).toBe(403);
    expect(ghostError(copy)).toMatchObject({ message: 'You do not have permission to perform this action' });
    expect((await contributor.as('DELETE', `/posts/?filter=id:${post.id}`)).statusCode).toBe(403);
  });
});

describe('Authors', () => {
  it('add posts naming themselves first, and may publish them', async () => {
    denied(await author.as('POST', '/posts/', { posts: [{ title: 'x', authors: [{ id: '1' }] }] }), 'Permission error, cannot save post.');
    const res = await author.as('POST', '/posts/', { posts: [{ title: 'By author', status: 'published', authors: [{ id: author.id }] }] });
    expect(res.statusCode).toBe(201);
  });

  it('edit posts they co-author, but not the primary author or the visibility; delete only as primary author', async () => {
    const shared = await ownerPost({ authors: [{ id: '1' }, { id: author.id }] });
    const ok = await author.as('PUT', `/posts/${shared.id}/`, { posts: [{ title: 'Co-edited', updated_at: shared.updated_at }] });
    expect(ok.statusCode).toBe(200);
    const updated = first(ok, 'posts');
    denied(await author.as('PUT', `/posts/${shared.id}/`, { posts: [{ visibility: 'members', updated_at: updated.updated_at }] }), 'Permission error, cannot edit post.');
    denied(await author.as('PUT', `/posts/${shared.id}/`, { posts: [{ authors: [{ id: author.id }], updated_at: updated.updated_at }] }), 'Permission error, cannot edit post.');
    denied(await author.as('DELETE', `/posts/${shared.id}/`), 'Permission error, cannot delete post.');
    const other = await ownerPost();
    denied(await author.as('PUT', `/posts/${other.id}/`, { posts: [{ title: 'x', updated_at: other.updated_at }] }), 'Permission error, cannot edit post.');
    const own = first(await author.as('POST', '/posts/', { posts: [{ title: 'Own', authors: [{ id: author.id }] }] }), 'posts');
    expect((await author.as('DELETE', `/posts/${own.id}/`)).statusCode).toBe(204);
  });
});

describe('Editors and integrations', () => {
  it('may edit and delete anyone\'s posts', async () => {
    const post = await ownerPost({ status: 'published' });
    const res = await editor.as('PUT', `/posts/${post.id}/`, { posts: [{ visibility: 'paid', authors: [{ id: editor.id }], updated_at: post.updated_at }] });
    expect(res.statusCode).toBe(200);
    expect(first(res, 'posts')).toMatchObject({ visibility: 'paid', primary_author: { id: editor.id } });
    expect((await editor.as('DELETE', `/posts/${post.id}/`)).statusCode).toBe(204);
  });

  it('an integration\'s posts default to the Owner as author', async () => {
    const post = await ownerPost();
    expect(post.primary_author.id).toBe('1');
  });
});
