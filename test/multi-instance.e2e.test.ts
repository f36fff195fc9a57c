import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_MS } from '../src/settings/settings.js';
import { useS3Server } from './s3-server.js';
import { OWNER, createTestDatabase, type TestDatabase } from './support.js';
import { image, themeZip } from './uploads.js';
import { WebhookReceiver, eventually, pause } from './webhook-receiver.js';
import { RotatingClient, buildIfStale, cookiesOf, listening, startInstance, type Answer, type Instance } from './instances.js';

/**
 * Three built servers on one PostgreSQL or MariaDB database and one S3 bucket, each with its own empty
 * CONTENT_DIR, behind a client that sends each request to the next instance: what one instance does, the
 * others see. Reads after a write go to every instance right after the write's answer (no stale cache);
 * only what the README gives a bound (settings, and the active theme, which is a setting) is polled, within it.
 */
const INSTANCES = 3;
const SITE = 'http://blog.example.test/';
const ORIGIN = 'http://blog.example.test';
const ADMIN = '/ghost/api/admin';
const CONTENT = '/ghost/api/content';
/** The settings bound (another instance's change is seen within RECHECK_MS), plus time for a loaded machine to answer. */
const SETTINGS_DEADLINE_MS = RECHECK_MS + 4000;

const server = process.env.TEST_DATABASE_URL ?? '';
const onServerDatabase = /^(postgres(ql)?|mysql|mariadb):/.test(server);
const redisUp = onServerDatabase && (await listening(6379));

if (onServerDatabase) severalInstances();
else it.skip('runs on PostgreSQL and MariaDB only: one SQLite file serves one instance (set TEST_DATABASE_URL to a server)', () => {});

function severalInstances() {
  const s3 = useS3Server();
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    buildIfStale();
    await receiver.start();
  }, 240_000);
  afterAll(() => receiver.stop());

  const variants: [string, Record<string, string>, boolean][] = [
    ['', {}, true],
    // Cache invalidation may also travel through Redis; the behaviour must be the same.
    [' and REDIS_URL', { REDIS_URL: 'redis://127.0.0.1:6379' }, redisUp || Boolean(process.env.CI)],
  ];

  describe.each(variants)(`${INSTANCES} instances on one database, S3 storage%s`, (variant, extraSettings, runs) => {
    if (!runs) {
      it.skip('needs Redis at 127.0.0.1:6379 (required when CI is set)', () => {});
      return;
    }
    let database: TestDatabase;
    let instances: Instance[] = [];
    let client: RotatingClient;
    let settings: Record<string, string>;
    let session: Record<string, string>;
    let contentKey: string;
    let integrationId: string;
    const address = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

    beforeAll(async () => {
      if (variant && !redisUp) throw new Error('REDIS_URL variant: no Redis answers at 127.0.0.1:6379');
      database = await createTestDatabase();
      settings = {
        DATABASE_URL: database.url,
        SITE_URL: SITE,
        // Instances that share no folder must share the key that seals stored secrets.
        SECRETS_KEY: randomBytes(32).toString('hex'),
        ...s3.settings(`multi-${randomBytes(4).toString('hex')}/`),
        JOBS_POLL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // A loaded machine can be slow to see an answer the receiver already sent.
        WEBHOOK_TIMEOUT_MS: '10000',
        WORKER_THREADS: '1',
        ...extraSettings,
      };
      // Started together on a fresh database: their migrations take turns.
      instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(settings)));
      client = new RotatingClient(
        instances.map((instance) => instance.base),
        { origin: ORIGIN },
      );
      expect((await client.send('POST', `${ADMIN}/authentication/setup/`, { body: { setup: [OWNER] } })).status).toBe(201);
      const login = await client.send('POST', `${ADMIN}/session/`, { body: { username: OWNER.email, password: OWNER.password } });
      expect(login.status).toBe(201);
      session = { cookie: cookiesOf(login) };
      const made = await client.send('POST', `${ADMIN}/integrations/?include=api_keys`, { body: { integrations: [{ name: 'Front end' }] }, headers: session });
      expect(made.status).toBe(201);
      const integration = made.json.integrations[0];
      integrationId = integration.id;
      contentKey = integration.api_keys.find((key: { type: string }) => key.type === 'content').secret;
    }, 180_000);

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await database?.drop();
    }, 60_000);

    const admin = (method: string, url: string, body?: unknown) => client.send(method, `${ADMIN}${url}`, { body, headers: session });
    const content = (url: string) => client.everywhere('GET', `${CONTENT}${url}${url.includes('?') ? '&' : '?'}key=${contentKey}`);
    const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

    it('accepts a staff session made on one instance on every other, and ends it everywhere on logout', async () => {
      const client2fa = { 'x-forwarded-for': address() };
      // A second login from a new device: one instance mails the code (to its own mail folder), another checks it.
      const login = await client.send('POST', `${ADMIN}/session/`, { body: { username: OWNER.email, password: OWNER.password }, headers: client2fa });
      expect(login.status).toBe(403);
      expect(login.json.errors[0].type).toBe('Needs2FAError');
      const cookie = cookiesOf(login);
      const code = signInCode(instances[login.instance]!.contentDir);
      const verified = await client.send('PUT', `${ADMIN}/session/verify/`, { body: { token: code }, headers: { cookie, ...client2fa } });
      expect(verified.instance).not.toBe(login.instance);
      expect(verified.status).toBe(200);

      const me = await client.everywhere('GET', `${ADMIN}/users/me/`, { headers: { cookie } });
      expect(statuses(me)).toEqual([200, 200, 200]);
      expect(me.map((answer) => answer.json.users[0].email)).toEqual([OWNER.email, OWNER.email, OWNER.email]);

      const logout = await client.send('DELETE', `${ADMIN}/session/`, { headers: { cookie } });
      expect(logout.status).toBe(204);
      expect(statuses(await client.everywhere('GET', `${ADMIN}/users/me/`, { headers: { cookie } }))).toEqual([403, 403, 403]);
    });

    it("shows an edit through one instance in every instance's Content API at once", async () => {
      // The tag has a published post, so the Content API shows it.
      const created = await admin('POST', '/posts/', { posts: [{ title: 'First title', status: 'published', tags: [{ name: 'First tag' }] }] });
      expect(created.status).toBe(201);
      let post = created.json.posts[0];
      const tag = post.tags[0];
      for (let round = 1; round <= INSTANCES; round++) {
        // Every instance has read the current version (and could have kept it) before the edit.
        expect((await content(`/posts/${post.id}/`)).map((answer) => answer.json.posts[0].title)).toEqual(Array(INSTANCES).fill(post.title));
        await content(`/posts/?filter=id:${post.id}&fields=id,title`);
        await content(`/tags/${tag.id}/`);
        const title = `Title from round ${round}`;
        const edited = await admin('PUT', `/posts/${post.id}/`, { posts: [{ title, updated_at: post.updated_at }] });
        expect(edited.status).toBe(200);
        post = edited.json.posts[0];
        expect((await content(`/posts/${post.id}/`)).map((answer) => answer.json.posts[0].title)).toEqual(Array(INSTANCES).fill(title));
        expect((await content(`/posts/?filter=id:${post.id}&fields=id,title`)).map((answer) => answer.json.posts[0]?.title)).toEqual(
          Array(INSTANCES).fill(title),
        );
        const renamed = await admin('PUT', `/tags/${tag.id}/`, { tags: [{ name: `Tag from round ${round}` }] });
        expect(renamed.status).toBe(200);
        expect((await content(`/tags/${tag.id}/`)).map((answer) => answer.json.tags[0].name)).toEqual(Array(INSTANCES).fill(`Tag from round ${round}`));
      }
      expect((await admin('DELETE', `/posts/${post.id}/`)).status).toBe(204);
      expect(statuses(await content(`/posts/${post.id}/`))).toEqual([404, 404, 404]);
    });

    it('counts failed logins spread over the instances against one limit', async () => {
      const from = { 'x-forwarded-for': address() };
      const attempt = () => client.send('POST', `${ADMIN}/session/`, { body: { username: OWNER.email, password: 'wrong-password-0' }, headers: from });
      // Ghost's user_login limiter: four free retries, then a wait; the fifth wrong password is still checked.
      for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(422);
      // Each instance saw two attempts at most: only a shared count reaches the limit.
      for (let i = 0; i < INSTANCES; i++) {
        const refused = await attempt();
        expect(refused.status).toBe(429);
        expect(refused.json.errors[0]).toMatchObject({
          type: 'TooManyRequestsError',
          message: 'Too many login attempts. Please wait 10 minutes before trying again, or reset your password.',
          context: 'Too many login attempts.',
        });
      }
      // Another client address is not held back.
      expect(
        (
          await client.send('POST', `${ADMIN}/session/`, {
            body: { username: OWNER.email, password: 'wrong-password-0' },
            headers: { 'x-forwarded-for': address() },
          })
        ).status,
      ).toBe(422);
    });

    it('serves a file uploaded through one instance from every instance', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await image(40, 30, 'png'))], { type: 'image/png' }), 'shared.png');
      const uploaded = await admin('POST', '/images/upload/', form);
      expect(uploaded.status).toBe(201);
      const { pathname } = new URL(uploaded.json.images[0].url);
      const served = await client.everywhere('GET', pathname);
      expect(statuses(served)).toEqual([200, 200, 200]);
      expect(new Set(served.map((answer) => answer.headers.get('etag'))).size).toBe(1);
    });

    it('lists a theme uploaded on one instance everywhere at once, and makes it active everywhere within the settings bound', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await themeZip('multi-theme'))], { type: 'application/zip' }), 'multi-theme.zip');
      const uploaded = await admin('POST', '/themes/upload/', form);
      expect(uploaded.status).toBe(200);
      const listed = await client.everywhere('GET', `${ADMIN}/themes/`, { headers: session });
      expect(listed.map((answer) => answer.json.themes.map((theme: { name: string }) => theme.name))).toEqual(Array(INSTANCES).fill(['multi-theme', 'quire']));

      const activated = await admin('PUT', '/themes/multi-theme/activate/');
      expect(activated.status).toBe(200);
      const at = Date.now();
      // The instance that activated it knows at once; the others within the settings bound.
      expect((await client.send('GET', `${ADMIN}/themes/active/`, { headers: session, instance: activated.instance })).json.themes[0].name).toBe('multi-theme');
      await eventually(
        async () =>
          (await client.everywhere('GET', `${ADMIN}/themes/active/`, { headers: session })).every((answer) => answer.json.themes[0].name === 'multi-theme'),
        SETTINGS_DEADLINE_MS,
        'the theme active on every instance',
      );
      console.log(`multi-instance${variant}: theme active on every instance ${Date.now() - at} ms after the activation's answer`);
    });

    it("shows a settings edit in every instance's Content API within the settings bound", async () => {
      const edited = await admin('PUT', '/settings/', { settings: [{ key: 'title', value: 'Shared title' }] });
      expect(edited.status).toBe(200);
      const at = Date.now();
      await eventually(
        async () => (await content('/settings/')).every((answer) => answer.json.settings.title === 'Shared title'),
        SETTINGS_DEADLINE_MS,
        'the new title on every instance',
      );
      console.log(`multi-instance${variant}: settings edit seen on every instance ${Date.now() - at} ms after its answer`);
    });

    it('publishes a scheduled post once with three job runners', async () => {
      const hookPath = `/published-${randomBytes(4).toString('hex')}`;
      const hook = await admin('POST', '/webhooks/', {
        webhooks: [{ event: 'post.published', target_url: `${receiver.url}${hookPath}`, integration_id: integrationId }],
      });
      expect(hook.status).toBe(201);
      const webhookId = hook.json.webhooks[0].id;
      // Far enough ahead that a loaded machine answers before it falls due.
      const due = new Date(Date.now() + 3000).toISOString();
      const scheduled = await admin('POST', '/posts/', { posts: [{ title: 'Published by one of three', status: 'scheduled', published_at: due }] });
      expect(scheduled.status).toBe(201);
      const id = scheduled.json.posts[0].id;
      await eventually(() => receiver.on(hookPath).length > 0, 30_000, 'post.published');
      // Every runner has looked for due posts many times over by now.
      await pause(2000);
      const deliveries = (await admin('GET', `/webhooks/${webhookId}/deliveries/`)).json.deliveries as { event: string; attempts: number; status: string }[];
      expect(deliveries.map((delivery) => [delivery.event, delivery.status])).toEqual([['post.published', 'delivered']]);
      // One event; it arrives once unless an attempt timed out after the receiver had it, and was sent again.
      expect(receiver.on(hookPath).length).toBeLessThanOrEqual(deliveries[0]!.attempts);
      expect(receiver.on(hookPath).map((request) => (request.json as any).post.current.id)).toContain(id);
      expect((await content(`/posts/${id}/`)).map((answer) => answer.json.posts[0]?.title)).toEqual(Array(INSTANCES).fill('Published by one of three'));
    }, 60_000);

    it('says at start that an instance was given another SECRETS_KEY than the others', async () => {
      const SAID = 'the secrets key differs from the one the previous start on this database used';
      expect(instances.some((instance) => instance.output().includes(SAID))).toBe(false);
      const stray = await startInstance({ ...settings, SECRETS_KEY: randomBytes(32).toString('hex'), JOBS_ENABLED: 'false' });
      try {
        await eventually(() => stray.output().includes(SAID), 10_000, 'the line about the key');
      } finally {
        await stray.stop();
      }
    }, 90_000);
  });
}

/** The code of the newest sign-in mail the file fallback wrote to this content folder. */
function signInCode(contentDir: string): string {
  const dir = path.join(contentDir, 'mail');
  if (!existsSync(dir)) throw new Error(`no mail in ${dir}`);
  const newest = readdirSync(dir).sort().pop()!;
  const code = /^Subject: (\d{6}) is your Ghost sign in verification code/m.exec(readFileSync(path.join(dir, newest), 'utf8'))?.[1];
  if (!code) throw new Error(`no sign-in code in ${newest}`);
  return code;
}
