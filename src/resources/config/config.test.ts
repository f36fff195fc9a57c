import { expect, it } from 'vitest';
import { ghostError } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { NOBODY, useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

/** Ghost's name for the engine under test (`TEST_DATABASE_URL`). */
function expectedDatabase(database: string): boolean {
  const url = process.env.TEST_DATABASE_URL ?? '';
  if (url.startsWith('postgres')) return database === 'postgres';
  if (url.startsWith('mysql')) return ['mariadb', 'mysql8', 'mysql5', 'mysql'].includes(database);
  return database === 'sqlite3';
}

it("answers Ghost's configuration object of a self-hosted install", async () => {
  const res = await t.admin.get('/config/');
  expect(res.statusCode).toBe(200);
  const { config } = res.json();
  expect(Object.keys(config)).toEqual([
    'version',
    'environment',
    'database',
    'mail',
    'useGravatar',
    'labs',
    'clientExtensions',
    'enableDeveloperExperiments',
    'stripeDirect',
    'mailgunIsConfigured',
    'emailAnalytics',
    'tenor',
    'signupForm',
    'security',
    'exploreTestimonialsUrl',
  ]);
  expect(config).toMatchObject({
    version: '5.130.6',
    environment: 'production',
    mail: '',
    labs: { audienceFeedback: true, contentVisibility: true, members: true },
    stripeDirect: false,
    mailgunIsConfigured: false,
    security: { staffDeviceVerification: false },
  });
  expect(expectedDatabase(config.database)).toBe(true);
});

it('shows labs flags as they are set', async () => {
  await t.admin.put('/settings/', {
    settings: [
      { key: 'labs', value: '{"webmentions":true}' },
      { key: 'members_signup_access', value: 'none' },
    ],
  });
  const { labs } = (await t.admin.get('/config/')).json().config;
  expect(labs).toMatchObject({ webmentions: true, members: false });
});

it('answers any signed-in caller and integrations, and nobody else', async () => {
  const contributor = await makeStaff(t, 'Contributor');
  expect((await t.admin.get('/config/', await t.session(contributor))).statusCode).toBe(200);
  expect((await t.admin.get('/config/', t.integration())).statusCode).toBe(200);
  const anonymous = await t.admin.get('/config/', NOBODY);
  expect(anonymous.statusCode).toBe(403);
  expect(ghostError(anonymous).message).toBe('Authorization failed');
});
