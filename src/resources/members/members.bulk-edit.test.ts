import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';

/** `PUT /members/bulk/`: Ghost's answers (checked against Ghost 5.130.6), all in one transaction. */
const t = useTestSite({ caller: 'integration' });

const addMember = async (email: string, labels: string[] = []) =>
  (await t.admin.post('/members/', { members: [{ email, labels }] })).json().members[0] as { id: string; labels: { id: string }[] };
const read = async (id: string) => (await t.admin.get(`/members/${id}/`)).json().members[0] as { labels: { name: string }[]; subscribed: boolean };
const bulk = (query: string, body: unknown) => t.admin.put(`/members/bulk/${query}`, body);
const stats = (successful: number, unsuccessful = 0) => ({ bulk: { meta: { stats: { successful, unsuccessful }, errors: [], unsuccessfulData: [] } } });

describe('PUT /members/bulk/', () => {
  it('refuses a missing or unknown action, and a request without filter, search or all=true', async () => {
    for (const body of [{ bulk: {} }, { bulk: { action: 'nope' } }, {}]) {
      const res = await bulk('?all=true', body);
      expectGhostError(res, { status: 400, type: 'IncorrectUsageError', message: 'Unsupported bulk action' });
    }
    for (const query of ['', '?all=1', '?filter=']) {
      const res = await bulk(query, { bulk: { action: 'unsubscribe' } });
      expectGhostError(res, { status: 400, type: 'IncorrectUsageError', message: 'Cannot perform bulk edit without a filter or all=true' });
    }
  });

  it('adds a label to the filtered members once, removes it, and counts as Ghost counts', async () => {
    const a = await addMember('bulk-a@example.com', ['Bulk VIP']);
    const b = await addMember('bulk-b@example.com');
    const other = await addMember('other@example.com');
    const label = a.labels[0]!.id;
    const res = await bulk('?filter=email:~%27bulk-%27', { bulk: { action: 'addLabel', meta: { label: { id: label } } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(stats(2));
    // `a` had the label already: it keeps one link (Ghost would add a second).
    expect((await read(a.id)).labels.map((l) => l.name)).toEqual(['Bulk VIP']);
    expect((await read(b.id)).labels.map((l) => l.name)).toEqual(['Bulk VIP']);
    expect((await read(other.id)).labels).toEqual([]);
    const removed = await bulk('?search=bulk-b', { bulk: { action: 'removeLabel', meta: { label: { id: label } } } });
    expect(removed.json()).toEqual(stats(1));
    expect((await read(b.id)).labels).toEqual([]);
    expect((await read(a.id)).labels).toHaveLength(1);
  });

  it('reports every member unsuccessful for a label that does not exist; asks for the label when members are selected', async () => {
    await addMember('nolabel@example.com');
    const missing = '0123456789abcdef01234567';
    const res = await bulk('?filter=email:nolabel@example.com', { bulk: { action: 'addLabel', meta: { label: { id: missing } } } });
    expect(res.statusCode).toBe(200);
    const meta = res.json().bulk.meta;
    expect(meta.stats).toEqual({ successful: 0, unsuccessful: 1 });
    expect(meta.unsuccessfulData).toEqual([{ member_id: expect.any(String), label_id: missing, id: expect.stringMatching(/^[0-9a-f]{24}$/) }]);
    expect(meta.errors).toEqual([{ message: 'Label not found.', errorDetails: meta.unsuccessfulData[0] }]);
    // Ghost fails with a 500 reading `meta.label.id` here; a 422 names what is missing.
    const noLabel = await bulk('?filter=email:nolabel@example.com', { bulk: { action: 'addLabel' } });
    expectGhostError(noLabel, { status: 422, type: 'ValidationError', message: 'Validation (FieldIsRequired) failed for meta.label.id' });
    // With nobody selected the label is never read, as in Ghost.
    expect((await bulk('?filter=email:nobody@example.com', { bulk: { action: 'addLabel' } })).json()).toEqual(stats(0));
  });

  it('unsubscribes the selected members from every newsletter, or from one, without touching the others', async () => {
    const c = await addMember('unsub-c@example.com');
    const d = await addMember('unsub-d@example.com');
    const newsletter = (await t.admin.get('/newsletters/')).json().newsletters[0].id as string;
    const one = await bulk('?filter=email:unsub-c@example.com', { bulk: { action: 'unsubscribe', newsletter } });
    expect(one.json()).toEqual(stats(1));
    expect((await read(c.id)).subscribed).toBe(false);
    const again = await bulk('?filter=email:unsub-c@example.com', { bulk: { action: 'unsubscribe', newsletter } });
    expect(again.json()).toEqual(stats(0));
    // Without a newsletter Ghost counts the members selected.
    const all = await bulk('?filter=email:~%27unsub-%27', { bulk: { action: 'unsubscribe' } });
    expect(all.json()).toEqual(stats(2));
    expect((await read(d.id)).subscribed).toBe(false);
    expect(all.headers['x-cache-invalidate']).toBeUndefined();
    // No subscription events: Ghost's bulk unsubscribe writes the link table only.
    const events = await t.db.selectFrom('members_subscribe_events').select('subscribed').where('member_id', 'in', [c.id, d.id]).execute();
    expect(events.every((event) => Boolean(event.subscribed))).toBe(true);
  });
});
