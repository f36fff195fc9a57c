// npm runs this instead of its own node-gyp (`node-gyp=` in the project's .npmrc) when a dependency's install
// script builds a native module. It builds better-sqlite3 only where the embedded engine uses it (Node 20, and
// 22 before 22.16): from Node 22.16, 23.11 and 24 Quire uses node:sqlite, so the 2-5 minute compile is skipped
// there and better-sqlite3 stays installed without its binary, never loaded. Every other build, and
// better-sqlite3 on older Node, goes to npm's node-gyp unchanged. The version rule is the one in
// src/db/sqlite-driver.ts (nodeSqliteUsable).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function nodeSqliteUsable(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
}

// A dependency's install script runs in that package's folder.
let name = '';
try {
  name = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')).name;
} catch {
  // not a package folder: build as asked
}
if (name === 'better-sqlite3' && nodeSqliteUsable(process.versions.node)) {
  console.error(`quire: better-sqlite3 not compiled: Node ${process.versions.node} has node:sqlite, which Quire uses instead`);
  process.exit(0);
}

// npm's own node-gyp, beside the npm that runs this install.
const candidates = [
  process.env.npm_execpath && path.join(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
].filter(Boolean);
const nodeGyp = candidates.find((file) => existsSync(file));
if (!nodeGyp) {
  console.error(`quire: npm's node-gyp was not found (looked in ${candidates.join(', ')})`);
  process.exit(1);
}
const built = spawnSync(process.execPath, [nodeGyp, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(built.status ?? 1);
