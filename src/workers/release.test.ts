import { describe, expect, it } from 'vitest';
import { LARGE_TASK_CHARS, releasingAfterLarge } from './release.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('releasingAfterLarge', () => {
  it("empties a large task's argument and result once the turn that delivered the result is over", async () => {
    const arg = { text: 'x'.repeat(LARGE_TASK_CHARS), options: { site: 'a' } };
    const task = releasingAfterLarge(
      (a: typeof arg) => a.text.length,
      async (a: typeof arg) => ({ length: a.text.length, parts: [a.text, a.options.site] }),
    );
    const result = await task(arg);
    // What piscina posts, in the turn the result arrives: whole.
    expect(result).toEqual({ length: LARGE_TASK_CHARS, parts: [arg.text, 'a'] });
    await nextTurn();
    expect(result).toEqual({});
    expect(arg).toEqual({});
  });

  it("empties a large task's argument after it throws, and leaves a small task's alone", async () => {
    const large = { text: 'x'.repeat(LARGE_TASK_CHARS) };
    const failing = releasingAfterLarge(
      (a: typeof large) => a.text.length,
      async () => {
        throw new Error('refused');
      },
    );
    await expect(failing(large)).rejects.toThrow('refused');
    await nextTurn();
    expect(large).toEqual({});

    const small = { text: 'short' };
    const result = await releasingAfterLarge(
      (a: typeof small) => a.text.length,
      async (a: typeof small) => ({ text: a.text }),
    )(small);
    await nextTurn();
    expect(small).toEqual({ text: 'short' });
    expect(result).toEqual({ text: 'short' });
  });
});
