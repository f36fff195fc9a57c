import { defineConfig } from 'vitest/config';
import { TEST_WORKER_FILE } from './test/build-worker.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file gets its own database; several files at once keep the three-engine run short.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The worker pool's threads run the worker entry bundled from the sources before the run.
    globalSetup: ['test/build-worker.ts'],
    env: { QUIRE_WORKER_FILE: TEST_WORKER_FILE },
  },
});
