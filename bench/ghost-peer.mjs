// The reference server, Ghost 5.130.6, as ../shared/peer/ghost-peer.sh runs it (production mode, SQLite, a
// fresh site per start), started under `taskset` so that it and all its threads share the cores Quire gets.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssMbOf, waitUntilAnswering } from './posts-common.mjs';

export const GHOST_VERSION = '5.130.6';
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/peer/ghost-peer.sh');
const home = process.env.GHOST_PEER_HOME ?? path.join(os.homedir(), '.cache/ghost-peer');

/** Whether the peer is installed (its script's `install` writes the marker last). */
export function ghostInstalled() {
  return existsSync(script) && existsSync(path.join(home, GHOST_VERSION, 'package/.installed'));
}

async function run(args, cpu) {
  const child = spawn(cpu === undefined ? script : 'taskset', cpu === undefined ? args : ['-c', String(cpu), script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`ghost-peer.sh ${args.join(' ')} exited with ${code}: ${output}`);
  return output;
}

/**
 * A fresh Ghost site on `port`, pinned to `cpu`, with the owner and an integration. `startMs` is from the
 * script's start (which copies a small content folder) to the first answer of `/site/`, polled here every 20 ms.
 */
export async function startGhost({ port, cpu }) {
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const starting = run(['start', String(port)], cpu);
  const answered = waitUntilAnswering(`${base}/ghost/api/admin/site/`, started, { pause: 20 });
  // The script's failure (Ghost did not start) ends the wait; its success still waits for the first answer seen here.
  const startMs = await Promise.race([answered, starting.then(() => answered)]);
  await starting;
  const pid = Number(readFileSync(path.join(home, 'run', String(port), 'pid'), 'utf8'));
  // Threads inherit the affinity taskset gave; this makes sure of it for every thread already running.
  if (cpu !== undefined) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
  const keys = Object.fromEntries(
    (await run(['bootstrap', String(port)]))
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).trim()]),
  );
  return {
    base,
    pid,
    startMs,
    adminKey: keys.ADMIN_KEY,
    contentKey: keys.CONTENT_KEY,
    rssMb: () => rssMbOf(pid),
    stop: () => run(['stop', String(port)]),
  };
}
