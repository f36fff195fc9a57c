import { describe, expect, it } from 'vitest';
import { SITE_URL } from './support.js';
import { lexicalDocument, lexicalParagraph } from './fixtures/lexical.mjs';
import { useTestSite } from './test-site.js';

const t = useTestSite();

// The answer to a save takes the content columns from the save instead of reading them back (issue 29:
// posts.queries.ts findSavedPost). It must be the post as a read afterwards returns it, on every engine,
// including text a driver stores changed (a lone surrogate is written as U+FFFD).
const FORMATS = 'formats=lexical,html,plaintext,mobiledoc';

const lexicalOf = (text: string) => lexicalDocument(lexicalParagraph(text));

async function expectAnswerIsRead(answer: { statusCode: number; json: () => { posts: Record<string, unknown>[] } }, status: number) {
  expect(answer.statusCode).toBe(status);
  const saved = answer.json().posts[0]!;
  const read = (await t.admin.get(`/posts/${String(saved.id)}/?${FORMATS}`)).json().posts[0];
  expect(saved).toEqual(read);
  return saved;
}

describe('the answer to a save', () => {
  it('is the post as read afterwards: add, edit, copy, html source, site links, emoji and a lone surrogate', async () => {
    const siteLink = `${SITE_URL}about/`;
    const html = `<p>Hello <a href="${siteLink}">about</a> 😀 and ${'words '.repeat(50)}</p><h2>Part</h2>`;
    const added = await expectAnswerIsRead(await t.admin.post(`/posts/?source=html&${FORMATS}`, { posts: [{ title: 'Answer', html }] }), 201);
    expect(added.html).toContain(siteLink);

    const edited = await expectAnswerIsRead(
      await t.admin.put(`/posts/${String(added.id)}/?${FORMATS}`, { posts: [{ lexical: lexicalOf('cut \ud800 pair'), updated_at: added.updated_at }] }),
      200,
    );
    expect(edited.html).not.toContain('\ud800');

    const titleOnly = await expectAnswerIsRead(
      await t.admin.put(`/posts/${String(added.id)}/?${FORMATS}`, { posts: [{ title: 'Renamed', updated_at: edited.updated_at }] }),
      200,
    );
    expect(titleOnly.lexical).toBe(edited.lexical);

    await expectAnswerIsRead(await t.admin.post(`/posts/${String(added.id)}/copy/?${FORMATS}`, {}), 201);
  });

  it('records revisions with the lexical as read, copied by the database or (with site links) sent', async () => {
    for (const html of ['<p>Only words here.</p>', `<p>A <a href="${SITE_URL}about/">site link</a>.</p>`]) {
      const added = (await t.admin.post('/posts/?source=html', { posts: [{ title: 'Revised', html }] })).json().posts[0];
      const published = await t.admin.put(`/posts/${String(added.id)}/?source=html`, {
        posts: [{ html: html.replace('<p>', '<p>More. '), status: 'published', updated_at: added.updated_at }],
      });
      const read = (await t.admin.get(`/posts/${String(added.id)}/?include=post_revisions`)).json().posts[0];
      expect(read.post_revisions.map((r: { lexical: string }) => r.lexical)).toEqual([added.lexical, published.json().posts[0].lexical]);
    }
  });
});
