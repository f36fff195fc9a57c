import { beforeAll, describe, expect, it } from 'vitest';
import { ghostError, expectGhostError } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite, type Caller } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
let contributor: { id: string; as: Caller };
let author: { id: string; as: Caller };
let editor: { id: string; as: Caller };

beforeAll(async () => {
  const staff = async (role: 'Contributor' | 'Author' | 'Editor') => {
    const user = await makeStaff(t, role);
    return { id: user.id, as: await t.session(user) };
  };
  contributor = await staff('Contributor');
  author = await staff('Author');
  editor = await staff('Editor');
});

const denied = (res: { statusCode: number }, message: string) => {
  expect(res.statusCode).toBe(403);
  expect(ghostError(res as never)).toMatchObject({ type: 'NoPermissionError', message, context: 'You do not have permission to perform this action' });
};
const ownerPost = async (fields: Record<string, unknown> = {}) =>
  first(await t.admin.post('/posts/', { posts: [{ title: 'Owner post', ...fields }] }), 'posts');

describe('Contributors', () => {
  it('add only their own drafts, naming themselves first; tags are dropped', async () => {
    denied(await t.admin.post('/posts/', { posts: [{ title: 'No authors' }] }, contributor.as), 'Permission error, cannot save post.');
    denied(
      await t.admin.post('/posts/', { posts: [{ title: 'Live', status: 'published', authors: [{ id: contributor.id }] }] }, contributor.as),
      'Permission error, cannot save post.',
    );
    const res = await t.admin.post('/posts/', { posts: [{ title: 'My draft', tags: ['Dropped'], authors: [{ id: contributor.id }] }] }, contributor.as);
    expect(res.statusCode).toBe(201);
    const post = first(res, 'posts');
    expect(post.tags).toEqual([]);
    expect(post.authors.map((a: { id: string }) => a.id)).toEqual([contributor.id]);
  });

  it('edit their own drafts without changing the status; delete only their own drafts', async () => {
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Draft two', authors: [{ id: contributor.id }] }] }, contributor.as), 'posts');
    const edited = await t.admin.put(`/posts/${post.id}/`, { posts: [{ title: 'Draft 2', tags: ['Ignored'], updated_at: post.updated_at }] }, contributor.as);
    expect(edited.statusCode).toBe(200);
    expect(first(edited, 'posts')).toMatchObject({ title: 'Draft 2', tags: [] });
    denied(
      await t.admin.put(`/posts/${post.id}/`, { posts: [{ status: 'published', updated_at: post.updated_at }] }, contributor.as),
      'Permission error, cannot edit post.',
    );
    const other = await ownerPost();
    denied(
      await t.admin.put(`/posts/${other.id}/`, { posts: [{ title: 'Mine now', updated_at: other.updated_at }] }, contributor.as),
      'Permission error, cannot edit post.',
    );
    denied(await t.admin.del(`/posts/${other.id}/`, contributor.as), 'Permission error, cannot delete post.');
    expect((await t.admin.del(`/posts/${post.id}/`, contributor.as)).statusCode).toBe(204);
  });

  it('cannot copy posts or use bulk actions', async () => {
    const post = await ownerPost();
    const copy = await t.admin.post(`/posts/${post.id}/copy/`, undefined, contributor.as);
    expectGhostError(copy, { status: 403, message: 'You do not have permission to perform this action' });
    expect((await t.admin.del(`/posts/?filter=id:${post.id}`, contributor.as)).statusCode).toBe(403);
  });
});

describe('Authors', () => {
  it('add posts naming themselves first, and may publish them', async () => {
    denied(await t.admin.post('/posts/', { posts: [{ title: 'x', authors: [{ id: '1' }] }] }, author.as), 'Permission error, cannot save post.');
    const res = await t.admin.post('/posts/', { posts: [{ title: 'By author', status: 'published', authors: [{ id: author.id }] }] }, author.as);
    expect(res.statusCode).toBe(201);
  });

  it('edit posts they co-author, but not the primary author or the visibility; delete only as primary author', async () => {
    const shared = await ownerPost({ authors: [{ id: '1' }, { id: author.id }] });
    const ok = await t.admin.put(`/posts/${shared.id}/`, { posts: [{ title: 'Co-edited', updated_at: shared.updated_at }] }, author.as);
    expect(ok.statusCode).toBe(200);
    const updated = first(ok, 'posts');
    denied(
      await t.admin.put(`/posts/${shared.id}/`, { posts: [{ visibility: 'members', updated_at: updated.updated_at }] }, author.as),
      'Permission error, cannot edit post.',
    );
    denied(
      await t.admin.put(`/posts/${shared.id}/`, { posts: [{ authors: [{ id: author.id }], updated_at: updated.updated_at }] }, author.as),
      'Permission error, cannot edit post.',
    );
    denied(await t.admin.del(`/posts/${shared.id}/`, author.as), 'Permission error, cannot delete post.');
    const other = await ownerPost();
    denied(
      await t.admin.put(`/posts/${other.id}/`, { posts: [{ title: 'x', updated_at: other.updated_at }] }, author.as),
      'Permission error, cannot edit post.',
    );
    const own = first(await t.admin.post('/posts/', { posts: [{ title: 'Own', authors: [{ id: author.id }] }] }, author.as), 'posts');
    expect((await t.admin.del(`/posts/${own.id}/`, author.as)).statusCode).toBe(204);
  });
});

describe('Editors and integrations', () => {
  it("may edit and delete anyone's posts", async () => {
    const post = await ownerPost({ status: 'published' });
    const res = await t.admin.put(
      `/posts/${post.id}/`,
      { posts: [{ visibility: 'paid', authors: [{ id: editor.id }], updated_at: post.updated_at }] },
      editor.as,
    );
    expect(res.statusCode).toBe(200);
    expect(first(res, 'posts')).toMatchObject({ visibility: 'paid', primary_author: { id: editor.id } });
    expect((await t.admin.del(`/posts/${post.id}/`, editor.as)).statusCode).toBe(204);
  });

  it("an integration's posts default to the Owner as author", async () => {
    const post = await ownerPost();
    expect(post.primary_author.id).toBe('1');
  });
});
