import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file gets its own database; several files at once keep the three-engine run short.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
