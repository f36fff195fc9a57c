import { describe, expect, it } from 'vitest';
import { longTextJson } from './long-text-json.js';

// Text over a slice boundary (256 K units) in every way escaping can differ: pairs, lone halves, escapes, non-ASCII.
function longText(seed: number, units: number): string {
  const pieces = ['plain words ', '"quoted" ', 'back\\slash ', 'tab\tnew\nline\r ', '\u0000\u001f ', 'über — ', '😀', '\ud800', '\udc00', 'x', '\u2028'];
  let out = '';
  let state = seed;
  while (out.length < units) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += pieces[state % pieces.length];
  }
  return out;
}

describe('longTextJson', () => {
  it('streams the bytes JSON.stringify writes, long strings anywhere in the answer', async () => {
    for (const seed of [1, 2, 3]) {
      const lexical = longText(seed, 1024 * 1024 + 7);
      const payloads = [
        { posts: [{ id: 'a', lexical, title: 'T', n: 1, none: undefined, at: new Date(0), tags: [{ name: 'x' }] }] },
        { posts: [{ html: lexical, plaintext: longText(seed + 10, 1200 * 1024), excerpt: lexical.slice(0, 500) }], meta: null },
        [lexical, 'short', lexical],
        // A pair across the first slice boundary, then pairs over every later one.
        { lexical: 'a'.repeat(256 * 1024 - 1) + '😀'.repeat(400 * 1024) },
        lexical,
      ];
      for (const payload of payloads) {
        const out = longTextJson(payload);
        expect(out).not.toBeNull();
        expect(Buffer.concat(await out!.toArray()).equals(Buffer.from(JSON.stringify(payload)))).toBe(true);
      }
    }
  });

  it('leaves an answer without long strings to JSON.stringify, including text that looks like its stand-in', () => {
    const payload = { posts: [{ title: '\u0001quire-long-text-0-x', html: '<p>short</p>' }] };
    expect(longTextJson(payload)).toBeNull();
  });
});
