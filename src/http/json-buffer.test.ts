import { describe, expect, it } from 'vitest';
import { jsonBuffer } from './json-buffer.js';

const asText = (value: Buffer | string) => (typeof value === 'string' ? value : value.toString('utf8'));

describe('jsonBuffer', () => {
  it('gives the bytes JSON.stringify gives', () => {
    const cases: unknown[] = [
      {
        posts: [{ id: 'a', html: '<p class="x">é “quoted” \u2028 \u{1F600}</p>', n: 1.5, nested: { d: new Date(0) } }, { id: 'b' }],
        meta: { pagination: { limit: 'all' } },
      },
      { posts: [], meta: null },
      { list: [undefined, () => 1, Symbol('s'), null, 0], skipped: undefined, fn: () => 1, after: true },
      { withDate: [new Date(86_400_000)], date: new Date(0) },
      { '"odd" key\n': 'value' },
      Object.assign(Object.create(null) as object, { bare: [1, 2] }),
      { errors: [{ message: 'Resource not found error, cannot read post.', context: null, type: 'NotFoundError' }] },
      {},
      [1, { a: 2 }],
      'text',
      null,
      { toJSON: () => ({ replaced: true }) },
      // Long text members of list items are escaped once and remembered: the same bytes, the first time and after.
      { posts: [{ first: undefined, html: `<p id="a">${'“q” \n\u2028 '.repeat(400)}</p>`, fn: () => 1, last: 'x'.repeat(2000) }] },
      { posts: [{ first: undefined, html: `<p id="a">${'“q” \n\u2028 '.repeat(400)}</p>`, fn: () => 1, last: 'x'.repeat(2000) }] },
      // Kept per item id and member: the same id with an edited text gives the new text's bytes.
      { posts: [{ id: 'p', html: `<p>${'"a" '.repeat(400)}</p>` }] },
      { posts: [{ id: 'p', html: `<p>${'"a" '.repeat(400)}</p>` }] },
      { posts: [{ id: 'p', html: `<p>${'"b" '.repeat(400)}</p>` }] },
      // Objects inside list items, one of them embedded in several items (written once, the same bytes each time).
      ((tag) => ({
        posts: [
          { tags: [tag, { ...tag }], primary_tag: tag, list: [[1, undefined], [tag], () => 1, Symbol('s'), undefined, null, new Date(0)] },
          { tags: [tag], primary_tag: tag, empty: [], nested: { tag, at: new Date(0) }, own: { toJSON: () => 'own' }, date: new Date(0) },
        ],
      }))({ id: 't', name: 'Tag', url: 'http://x/tag/t/', count: { posts: 2 }, none: undefined }),
    ];
    for (const value of cases) expect(asText(jsonBuffer(value))).toBe(JSON.stringify(value));
  });

  it('writes the scalar members of list items and keys as JSON.stringify does, escapes and surrogates included', () => {
    const units = ['a', 'é', '"', '\\', '\n', '\u0000', '\u001f', ' ', '\u007f', '\u2028', '\ud83d', '\ude00', '\ud83d\ude00', '\uffff', '/'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = () => Array.from({ length: Math.floor(next() * 6) }, () => units[Math.floor(next() * units.length)]).join('');
    const scalars = [0, -0, 1.5, -2e-7, 1e21, NaN, Infinity, -Infinity, true, false, null, undefined, Symbol('s'), () => 1];
    for (let round = 0; round < 300; round++) {
      const item: Record<string, unknown> = { id: `i${round}` };
      for (let member = 0; member < 6; member++) item[text()] = next() < 0.6 ? text() : scalars[Math.floor(next() * scalars.length)];
      const value = { posts: [item] };
      expect(asText(jsonBuffer(value))).toBe(JSON.stringify(value));
    }
  });

  it('answers a large envelope as a Buffer, a small one as a string', () => {
    const large = { posts: Array.from({ length: 20 }, (_, i) => ({ id: String(i), html: `<p>${'word '.repeat(1000)}</p>` })), meta: {} };
    const buffer = jsonBuffer(large);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect(asText(buffer)).toBe(JSON.stringify(large));
    expect(jsonBuffer({ posts: [{ id: 'a' }] })).toBe('{"posts":[{"id":"a"}]}');
  });
});
