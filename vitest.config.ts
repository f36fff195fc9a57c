import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { TEST_WORKER_FILE } from './test/build-worker.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file gets its own database; several files at once keep the three-engine run short.
    pool: 'forks',
    // Vitest's default is one file per core less one: a single file at a time on CI's 2 cores. Most files spend
    // their time waiting (on the database server, a browser, a child process), so two at once there took the
    // SQLite suite from ~980 s to ~540 s without a failure; CI runs the suite four times.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The worker pool's threads run the worker entry bundled from the sources before the run.
    globalSetup: ['test/build-worker.ts'],
    env: { QUIRE_WORKER_FILE: TEST_WORKER_FILE },
  },
});
