// Runs as `npm install`'s `prepare` script and before `npm start` and `npm run setup`. The first install builds;
// later ones, and starts, only compare file times (a few ms) when nothing changed, so a second `npm install`
// does not spend ~20-45 s building again. After a source edit or a `git pull` it builds first, so start never
// runs code older than the source.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// A failed build writes no bundle, so the older one's time is the time of the last good build.
const bundles = ['main.mjs', 'cli.mjs', 'worker.mjs'].map((name) => path.join(root, 'dist', name));

function newestInput() {
  let newest = Math.max(statSync(path.join(root, 'tsconfig.json')).mtimeMs, statSync(path.join(root, 'rolldown.config.mjs')).mtimeMs);
  for (const entry of readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

// The bundles hold most dependencies (rolldown.config.mjs lists those left out), so a changed lockfile means a
// new build too. Its content is compared, not its time: npm rewrites the file on every install.
const stamp = path.join(root, 'dist', '.lockfile-hash');
function lockfileHash() {
  try {
    return createHash('sha256')
      .update(readFileSync(path.join(root, 'package-lock.json')))
      .digest('hex');
  } catch {
    return 'none';
  }
}
const readStamp = () => {
  try {
    return readFileSync(stamp, 'utf8');
  } catch {
    return '';
  }
};

let built = 0;
try {
  built = Math.min(...bundles.map((file) => statSync(file).mtimeMs));
} catch {
  // no build yet
}
const lock = lockfileHash();
const sourceChanged = built < newestInput();
if (sourceChanged || readStamp() !== lock) {
  const why = !built ? 'no build yet' : sourceChanged ? 'the source changed since the last build' : 'the dependencies changed since the last build';
  console.error(`quire: ${why}; building…`);
  // The build's output goes to stderr: `npm run --silent setup > .env` keeps only setup's KEY=value lines.
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: [0, 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, lock);
}
