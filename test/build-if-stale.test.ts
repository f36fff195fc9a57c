import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/*
 * `npm install`'s prepare step (and `npm start`'s prestart) run scripts/build-if-stale.mjs: a second install with
 * nothing changed must not build again (issue 29, item 1). The first run here builds only when this checkout's
 * source is newer than its bundles, as after an edit; the second must find nothing to do.
 */
const root = path.resolve(import.meta.dirname, '..');
const bundles = ['main.mjs', 'cli.mjs', 'worker.mjs'].map((name) => path.join(root, 'dist', name));
const run = () => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, encoding: 'utf8' });

it('builds nothing when neither the source nor the lockfile changed since the last build', () => {
  expect(run().status).toBe(0);
  const builtAt = bundles.map((file) => statSync(file).mtimeMs);

  const again = run();
  expect(again.status).toBe(0);
  expect(again.stderr).not.toMatch(/building/);
  expect(bundles.map((file) => statSync(file).mtimeMs)).toEqual(builtAt);
}, 120_000);
