import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';

// The README's signed-request example (examples/raw-admin-api.mjs) run as it is, as a user runs it, against a
// listening server: tiers, offers, a members CSV import and labels through the SDK's token helper.
const t = useTestSite();
const root = path.resolve(import.meta.dirname, '..');
let url: string;
beforeAll(async () => {
  url = await t.listen();
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['examples/raw-admin-api.mjs'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

it('runs the README example: each call is signed and answered, and its writes are there', async () => {
  const { code, stdout, stderr } = await runExample({ ADMIN_API_URL: url, ADMIN_KEY: t.keys.adminKey });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.trim().split('\n')).toEqual([
    // Setup renames the default tier after the site.
    'paid tiers: Test Site',
    'tier added: gold',
    'offer added: launch',
    'members imported: 2',
    // Ghost's import label (`Import <date time>`) and the one the upload named.
    expect.stringMatching(/^labels: Import \d{4}-\d\d-\d\d \d\d:\d\d, imported$/),
  ]);
  const offer = await t.db.selectFrom('offers').select(['code', 'discount_amount']).where('code', '=', 'launch').executeTakeFirstOrThrow();
  expect(Number(offer.discount_amount)).toBe(20);
  const members = await t.db.selectFrom('members').select('email').where('email', 'like', 'reader.%').orderBy('email').execute();
  expect(members.map((member) => member.email)).toEqual(['reader.one@example.com', 'reader.two@example.com']);
});

it('says what went wrong when a call is refused (a key that does not exist)', async () => {
  const { code, stderr } = await runExample({ ADMIN_API_URL: url, ADMIN_KEY: `${'0'.repeat(24)}:${'0'.repeat(64)}` });
  expect(code).toBe(1);
  expect(stderr).toContain('Error: GET /tiers/?filter=type:paid: 401 UnauthorizedError: Unknown Admin API Key');
});
