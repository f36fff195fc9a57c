import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, freePort } from './support.js';
import { useBuildAndFolder } from './instances.js';

// What `npm run setup` and `npm start` run: the bundles in dist/ (built by `npm install`, rebuilt here when a
// source file is newer), as processes. The suite's other tests import the source; this one would catch a
// bundle that builds but does not start.
const root = path.resolve(import.meta.dirname, '..');
const folder = useBuildAndFolder('quire-start-');
let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  const { SITE_URL: _site, ...inherited } = process.env;
  env = { ...inherited, PORT: String(await freePort()), DATABASE_URL: database.url, CONTENT_DIR: folder.path, LOG_LEVEL: 'warn' };
});
afterAll(async () => {
  await database.drop();
});

it('sets up with the built CLI, then the built server answers where PORT says, with url fields that follow it, and shows the site', async () => {
  const output = execFileSync(process.execPath, ['dist/cli.mjs', 'setup', '--email', 'start@example.com'], { cwd: root, env, encoding: 'utf8' });
  expect(output).toContain(`ADMIN_API_URL=http://localhost:${env.PORT}\n`);
  expect(output).toContain(`ADMIN_URL=http://localhost:${env.PORT}/ghost/`);

  const server = spawn(process.execPath, ['dist/main.mjs'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    let res: Response | undefined;
    for (let tries = 0; !res && tries < 300; tries++) {
      res = await fetch(`http://127.0.0.1:${env.PORT}/ghost/api/admin/site/`).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return undefined;
      });
    }
    expect(res?.status).toBe(200);
    expect((await res!.json()).site.url).toBe(`http://localhost:${env.PORT}/`);
    // The public site, rendered by the default theme the install ships (found from the bundle's folder).
    const home = await fetch(`http://127.0.0.1:${env.PORT}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<h1 class="hero-title">');
    expect(html).toContain('data-members-form="signup"');
    const stylesheet = /href="(\/assets\/css\/screen\.css\?v=\w+)"/.exec(html)?.[1];
    expect((await fetch(`http://127.0.0.1:${env.PORT}${stylesheet}`)).status).toBe(200);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
});
