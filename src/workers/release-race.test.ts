import { expect, it, vi } from 'vitest';

/*
 * `--expose-gc` is a process-wide flag, which each thread sets and clears around making the context that hands it
 * V8's gc(). Here the first setting is lost, as when another thread clears the flag in between: the collection must
 * still happen. (Its own file: the mock of node:v8 is the module's, for every test in the file.)
 */
const lost = vi.hoisted(() => ({ settings: 0 }));

vi.mock('node:v8', async (importOriginal) => {
  const v8 = await importOriginal<typeof import('node:v8')>();
  return {
    ...v8,
    setFlagsFromString: (flags: string) => {
      if (flags === '--expose-gc' && lost.settings > 0) {
        lost.settings--;
        return;
      }
      v8.setFlagsFromString(flags);
    },
  };
});

it('collects when another thread cleared --expose-gc before this thread made its context', async () => {
  lost.settings = 1;
  const { collectGarbageNow } = await import('./release.js');
  expect(() => collectGarbageNow()).not.toThrow();
  expect(lost.settings).toBe(0);
});
