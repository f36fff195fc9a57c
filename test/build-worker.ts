import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { external, resolve } from '../rolldown.config.mjs';

/**
 * Vitest runs the TypeScript sources, but worker threads load plain JavaScript: before the tests, the
 * worker entry is bundled from the sources (as `npm run build` does) to the file that
 * vitest.config.ts names in QUIRE_WORKER_FILE, so the tests run the same pool and the same task code.
 */
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// Named after the checkout: git worktrees sharing one node_modules (a symlink) would otherwise overwrite each
// other's worker entry while their suites run.
const checkout = createHash('sha1').update(root).digest('hex').slice(0, 12);
export const TEST_WORKER_FILE = path.join(root, 'node_modules', '.cache', 'quire-test', `worker-${checkout}.mjs`);

export default async function buildWorker() {
  await build({
    input: path.join(root, 'src', 'worker.ts'),
    platform: 'node',
    external,
    resolve,
    logLevel: 'warn',
    output: { file: TEST_WORKER_FILE, format: 'esm', codeSplitting: false },
  });
}
