// Runs before `npm start` and `npm run setup`: `npm install` builds (the `prepare` script), so normally this
// only compares file times (a few ms) and starts the existing build. After a source edit or a `git pull`
// without a reinstall it builds first, so start never runs code older than the source.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// tsc rewrites every output on a successful build (and nothing on a failed one: noEmitOnError), so this
// file's time is the time of the last good build.
const marker = path.join(root, 'dist', 'src', 'main.js');

function newestInput() {
  let newest = statSync(path.join(root, 'tsconfig.json')).mtimeMs;
  for (const entry of readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

let built = 0;
try {
  built = statSync(marker).mtimeMs;
} catch {
  // no build yet
}
if (built < newestInput()) {
  console.error(built ? 'quire: the source changed since the last build; building…' : 'quire: no build yet; building…');
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
