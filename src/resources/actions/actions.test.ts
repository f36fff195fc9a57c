import { describe, expect, it } from 'vitest';
import { expectRefused } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

interface Action {
  id: string;
  resource_id: string | null;
  resource_type: string;
  actor_id: string;
  actor_type: string;
  event: string;
  context: string;
  created_at: string;
  actor?: Record<string, unknown>;
  resource?: Record<string, unknown>;
}

const actionsOf = async (query: string): Promise<Action[]> => {
  const res = await t.admin.get(`/actions/?limit=all&${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().actions;
};

describe('the audit trail', () => {
  it('records adds, edits and deletes by a staff user with the record’s name', async () => {
    const add = await t.admin.post('/snippets/', { snippets: [{ name: 'Audited', mobiledoc: '{}' }] });
    const id = add.json().snippets[0].id;
    await t.admin.put(`/snippets/${id}/`, { snippets: [{ name: 'Audited Renamed', mobiledoc: '{}' }] });
    await t.admin.del(`/snippets/${id}/`);
    const actions = await actionsOf(`filter=resource_id:'${id}'&include=actor`);
    expect(actions.map((a) => a.event).sort()).toEqual(['added', 'deleted', 'edited']);
    const byEvent = Object.fromEntries(actions.map((a) => [a.event, a]));
    expect(byEvent.added).toMatchObject({ resource_type: 'snippet', actor_id: '1', actor_type: 'user', context: '{"primary_name":"Audited"}' });
    expect(byEvent.edited!.context).toBe('{"primary_name":"Audited Renamed"}');
    expect(byEvent.deleted!.context).toBe('{"primary_name":"Audited Renamed"}');
    expect(byEvent.added!.actor).toEqual({ id: '1', name: 'Owner Person', slug: 'owner', image: null });
    expect(Object.keys(byEvent.added!)).toEqual(['id', 'resource_id', 'resource_type', 'actor_id', 'actor_type', 'event', 'context', 'created_at', 'actor']);
    expect(byEvent.added!.created_at).toMatch(/\.000Z$/);
  });

  it('records members and the labels a member write creates', async () => {
    const add = await t.admin.post('/members/', { members: [{ email: 'audited@example.com', name: 'Audited Member', labels: ['Audited Label'] }] });
    expect(add.statusCode).toBe(201);
    const member = add.json().members[0];
    await t.admin.del(`/members/${member.id}/`);
    const memberActions = await actionsOf(`filter=resource_id:'${member.id}'`);
    expect(memberActions.map((a) => [a.resource_type, a.event]).sort()).toEqual([
      ['member', 'added'],
      ['member', 'deleted'],
    ]);
    expect(memberActions.find((a) => a.event === 'added')!.context).toBe('{"primary_name":"Audited Member"}');
    const labelActions = await actionsOf(`filter=resource_id:'${member.labels[0].id}'`);
    expect(labelActions).toMatchObject([{ resource_type: 'label', event: 'added', context: '{"primary_name":"Audited Label"}' }]);
  });

  it('names an integration as the actor of its writes, and posts carry their type', async () => {
    const as = t.integration();
    const post = (await t.admin.post('/pages/', { pages: [{ title: 'Audited Page' }] }, as)).json().pages[0];
    await t.admin.put(`/pages/${post.id}/`, { pages: [{ title: 'Audited Page 2', updated_at: post.updated_at }] }, as);
    const actions = await actionsOf(`filter=resource_id:'${post.id}'&include=actor,resource`);
    expect(actions).toHaveLength(2);
    const added = actions.find((a) => a.event === 'added')!;
    expect(added).toMatchObject({
      resource_type: 'post',
      actor_type: 'integration',
      actor_id: t.keys.integrationId,
      context: '{"type":"page","primary_name":"Audited Page"}',
    });
    expect(added.actor).toMatchObject({ id: t.keys.integrationId, image: null });
    expect(added.resource).toEqual({ id: post.id, title: 'Audited Page 2', slug: 'audited-page', image: null });
    expect(actions.find((a) => a.event === 'edited')!.context).toBe('{"type":"page","primary_name":"Audited Page 2"}');
  });

  it('records a filtered bulk delete as one action with a count', async () => {
    for (const title of ['Bulk A', 'Bulk B']) await t.admin.post('/posts/', { posts: [{ title, tags: [{ name: 'bulk-audit' }] }] });
    expect((await t.admin.del('/posts/?filter=tag:bulk-audit')).statusCode).toBe(200);
    const actions = await actionsOf(`filter=resource_type:post%2Bevent:deleted`);
    const bulk = actions.find((a) => a.resource_id === null);
    expect(bulk?.context).toBe('{"count":2}');
  });

  it('records nothing for a write that failed', async () => {
    const before = (await actionsOf('')).length;
    const res = await t.admin.post('/snippets/', { snippets: [{ name: 'x'.repeat(192), mobiledoc: '{}' }] });
    expect(res.statusCode).toBe(422);
    const duplicate = await t.admin.post('/snippets/', { snippets: [{ name: 'Twice', mobiledoc: '{}' }] });
    expect(duplicate.statusCode).toBe(201);
    expect((await t.admin.post('/snippets/', { snippets: [{ name: 'Twice', mobiledoc: '{}' }] })).statusCode).toBe(422);
    expect((await actionsOf('')).length).toBe(before + 1);
  });
});

describe('GET /actions/', () => {
  it('pages newest first and shows `{}` for an included record that is gone', async () => {
    const res = await t.admin.get('/actions/?limit=2&include=resource');
    expect(res.json().meta.pagination).toMatchObject({ page: 1, limit: 2 });
    const [first, second] = res.json().actions as Action[];
    expect(first!.created_at >= second!.created_at).toBe(true);
    const deleted = (await actionsOf('filter=event:deleted%2Bresource_type:snippet&include=resource'))[0]!;
    expect(deleted.resource).toEqual({});
  });

  it('is for Administrators and integrations only', async () => {
    const editor = await makeStaff(t, 'Editor');
    const res = await t.admin.get('/actions/', await t.session(editor));
    expectRefused(res, 403, 'list actions');
    expect((await t.admin.get('/actions/', t.integration())).statusCode).toBe(200);
  });
});
