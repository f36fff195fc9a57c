import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, ORIGIN, adminAuth, bootstrap, ghostError, startTestApp, type TestApp } from '../../../test/support.js';
import { addStaffUser, loginAs } from '../../../test/staff-support.js';

let t: TestApp;
let owner: Record<string, string>;
let adminKey: string;
beforeAll(async () => {
  t = await startTestApp();
  const boot = await bootstrap(t.app);
  owner = { cookie: boot.cookie, origin: ORIGIN };
  adminKey = boot.adminKey;
});
afterAll(async () => t.close());

const names = async (query: string, headers: Record<string, string>) => {
  const res = await t.app.inject({ url: `${ADMIN}/roles/${query}`, headers });
  expect(res.statusCode).toBe(200);
  expect(Object.keys(res.json())).toEqual(['roles']);
  return res.json().roles.map((r: { name: string }) => r.name);
};
const as = async (role: 'Administrator' | 'Editor' | 'Super Editor' | 'Author' | 'Contributor') => ({ cookie: await loginAs(t.app, (await addStaffUser(t, role)).email), origin: ORIGIN });

it('lists all eleven roles in fixture order, without meta', async () => {
  expect(await names('', owner)).toEqual([
    'Administrator', 'Editor', 'Author', 'Contributor', 'Owner', 'Admin Integration', 'Ghost Explore Integration',
    'Self-Serve Migration Integration', 'DB Backup Integration', 'Scheduler Integration', 'Super Editor',
  ]);
  const res = await t.app.inject({ url: `${ADMIN}/roles/`, headers: owner });
  expect(Object.keys(res.json().roles[0])).toEqual(['id', 'name', 'description', 'created_at', 'updated_at']);
});

it('filters to assignable roles with permissions=assign, per caller', async () => {
  expect(await names('?permissions=assign', owner)).toEqual(['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor']);
  expect(await names('?permissions=assign', await as('Administrator'))).toEqual(['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor']);
  expect(await names('?permissions=assign', await as('Editor'))).toEqual(['Author', 'Contributor']);
  expect(await names('?permissions=assign', await as('Super Editor'))).toEqual(['Author', 'Contributor']);
  expect(await names('?permissions=assign', await as('Author'))).toEqual([]);
  expect(await names('?permissions=assign', await as('Contributor'))).toEqual([]);
  // An integration may assign anything but Owner, internal integration roles included (observed on Ghost).
  expect(await names('?permissions=assign', adminAuth(adminKey))).toEqual([
    'Administrator', 'Editor', 'Author', 'Contributor', 'Admin Integration', 'Ghost Explore Integration',
    'Self-Serve Migration Integration', 'DB Backup Integration', 'Scheduler Integration', 'Super Editor',
  ]);
});

it('refuses other permissions values with 422', async () => {
  const res = await t.app.inject({ url: `${ADMIN}/roles/?permissions=foo`, headers: owner });
  expect(res.statusCode).toBe(422);
  expect(ghostError(res)).toMatchObject({ type: 'ValidationError', message: 'Validation error, cannot list roles.', context: 'Validation (AllowedValues) failed for permissions' });
});

it('requires authentication', async () => {
  const res = await t.app.inject({ url: `${ADMIN}/roles/` });
  expect(res.statusCode).toBe(403);
  expect(ghostError(res)).toMatchObject({ type: 'NoPermissionError', message: 'Authorization failed' });
});
