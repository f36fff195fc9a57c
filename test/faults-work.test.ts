import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { ghostError } from './support.js';
import { makeStaff } from './factories.js';
import { HTML_MAX_DEPTH, htmlNestingDepth } from '../src/content/html-limits.js';
import { WorkerDeadlineError, runInWorker } from '../src/workers/pool.js';

/** Bounded work: hostile html is refused before conversion, and a runaway task cannot hold the pool. */
const t = useTestSite();

const nested = (depth: number, tag = 'div') => `<${tag}>`.repeat(depth) + 'deep' + `</${tag}>`.repeat(depth);

describe('html nesting', () => {
  it('counts nesting as a parser builds it', () => {
    expect(htmlNestingDepth('<p>a<p>b<p>c')).toBe(1);
    expect(htmlNestingDepth('<ul><li>a<li>b</ul>')).toBe(2);
    expect(htmlNestingDepth('<div><br><img src="x>y"><hr/></div>')).toBe(1);
    expect(htmlNestingDepth('<!-- <div><div> --><script>if (a<b) "<div>"</script><b>x</b>')).toBe(1);
    expect(htmlNestingDepth(nested(1200), HTML_MAX_DEPTH)).toBe(HTML_MAX_DEPTH + 1);
    expect(htmlNestingDepth('<p>text<div><div>x</div></div>')).toBe(2);
  });

  it('answers a deeply nested html post 422 at once, as Ghost does in the end, while saves and a staff login go through', async () => {
    const editor = await makeStaff(t, 'Editor');
    const html = nested(8000);
    expect(html.length).toBeGreaterThan(85_000);
    const started = Date.now();
    const [deep, deepToo, save, login] = await Promise.all([
      t.admin.post('/posts/?source=html', { posts: [{ title: 'Deep', html }] }),
      t.admin.post('/posts/?source=html', { posts: [{ title: 'Deeper', html: nested(100_000, 'span') }] }),
      t.admin.post('/posts/?source=html', { posts: [{ title: 'Ordinary', html: '<p>Hello <strong>world</strong></p>' }] }),
      t.session(editor),
    ]);
    const elapsed = Date.now() - started;
    expect(deep.statusCode).toBe(422);
    // Ghost 5.130.6's answer to the same post (after ~44 s of conversion there).
    expect(ghostError(deep)).toMatchObject({
      message: 'Validation error, cannot save post.',
      context: 'Failed to convert HTML to Mobiledoc',
      type: 'ValidationError',
      details: null,
      property: null,
      help: null,
      code: null,
    });
    expect(deepToo.statusCode).toBe(422);
    expect(save.statusCode).toBe(201);
    expect(save.json().posts[0].lexical).toContain('world');
    expect(login.cookie).toBeTruthy();
    // Generous: the refusal itself is a scan of the text; the save and login pay a thread's start-up.
    expect(elapsed).toBeLessThan(10_000);
    // Nothing was written for the refused posts.
    expect(await t.db.selectFrom('posts').select('id').where('title', 'in', ['Deep', 'Deeper']).execute()).toEqual([]);
  });

  it('converts html nested up to the limit', { timeout: 60_000 }, async () => {
    const res = await t.admin.post('/posts/?source=html', { posts: [{ title: 'At the limit', html: nested(HTML_MAX_DEPTH) }] });
    expect(res.statusCode).toBe(201);
  });
});

describe('staff sign-in lane', () => {
  it('signs a user in while every content thread is busy converting, before any of those conversions ends', { timeout: 120_000 }, async () => {
    const order: string[] = [];
    // The sign-in lane's thread is started first (its start-up, loading the worker bundle, is not what is measured).
    await t.session({ email: 'owner@example.com', password: 'Sup3r-secret-pass!' });
    // More conversions than content threads (at most four), each a couple of seconds long (ten documents nested
    // to the limit: one alone converts in a few hundred milliseconds, less than a sign-in's hashing can take).
    const long = nested(HTML_MAX_DEPTH).repeat(10);
    // The fifth waits for a thread: on a loaded machine it can outlast the pool's default 30 s deadline, which is
    // not what this test is about.
    const conversions = Array.from({ length: 5 }, (_, i) =>
      runInWorker('htmlToLexical', long, { timeoutMs: 110_000 }).then(() => order.push(`conversion ${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const login = t.session({ email: 'owner@example.com', password: 'Sup3r-secret-pass!' }).then(() => order.push('login'));
    await Promise.all([...conversions, login]);
    expect(order[0]).toBe('login');
  });
});

describe('worker task deadline', () => {
  it('fails a task past its deadline, ends its thread, and keeps serving', { timeout: 60_000 }, async () => {
    const started = Date.now();
    const err = await runInWorker('htmlToLexical', nested(3000), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerDeadlineError);
    expect(String(err)).toMatch(/did not finish within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    // The pool still converts (a fresh thread if the runaway one was the only one).
    const res = await t.admin.post('/posts/?source=html', { posts: [{ title: 'After', html: '<p>fine</p>' }] });
    expect(res.statusCode).toBe(201);
  });
});
