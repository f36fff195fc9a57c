/** Polls `check` until it returns a value that is not undefined/false, or fails after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, ms = 30_000, what = 'the condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
