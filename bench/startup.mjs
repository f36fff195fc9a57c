// Start to first answer: spawns the built server on an existing database and polls GET /site/ until it answers.
// Usage: npm run build && node bench/startup.mjs [runs]   (DATABASE_URL/CONTENT_DIR as for the server)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const port = 23000 + Math.floor(Math.random() * 1000);
const env = { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', CONTENT_DIR: process.env.CONTENT_DIR ?? mkdtempSync(path.join(tmpdir(), 'quire-bench-')) };

async function once() {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/main.mjs'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ghost/api/admin/site/`);
      if (res.ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

await once(); // the first run creates and migrates the database
const times = [];
for (let i = 0; i < runs; i++) times.push(await once());
times.sort((a, b) => a - b);
console.log(
  `start to first answer on an existing database (${env.DATABASE_URL ?? 'sqlite'}): median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms over ${runs} runs`,
);
