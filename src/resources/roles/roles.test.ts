import { expect, it } from 'vitest';
import { ORIGIN, expectGhostError, expectRefused } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { loginAs } from '../../../test/staff-support.js';
import { NOBODY, useTestSite, type Caller } from '../../../test/test-site.js';

const t = useTestSite();

/** Ghost's eleven roles in fixture order. */
const ALL_ROLES = [
  'Administrator',
  'Editor',
  'Author',
  'Contributor',
  'Owner',
  'Admin Integration',
  'Ghost Explore Integration',
  'Self-Serve Migration Integration',
  'DB Backup Integration',
  'Scheduler Integration',
  'Super Editor',
];

const names = async (query: string, as: Caller) => {
  const res = await t.admin.get(`/roles/${query}`, as);
  expect(res.statusCode).toBe(200);
  expect(Object.keys(res.json())).toEqual(['roles']);
  return res.json().roles.map((r: { name: string }) => r.name);
};
const as = async (role: 'Administrator' | 'Editor' | 'Super Editor' | 'Author' | 'Contributor') => ({
  cookie: await loginAs(t.app, (await makeStaff(t, role)).email),
  origin: ORIGIN,
});

it('lists all eleven roles in fixture order, without meta', async () => {
  expect(await names('', t.owner)).toEqual(ALL_ROLES);
  const res = await t.admin.get('/roles/');
  expect(Object.keys(res.json().roles[0])).toEqual(['id', 'name', 'description', 'created_at', 'updated_at']);
});

it('filters to assignable roles with permissions=assign, per caller', async () => {
  expect(await names('?permissions=assign', t.owner)).toEqual(['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor']);
  expect(await names('?permissions=assign', await as('Administrator'))).toEqual(['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor']);
  expect(await names('?permissions=assign', await as('Editor'))).toEqual(['Author', 'Contributor']);
  expect(await names('?permissions=assign', await as('Super Editor'))).toEqual(['Author', 'Contributor']);
  expect(await names('?permissions=assign', await as('Author'))).toEqual([]);
  expect(await names('?permissions=assign', await as('Contributor'))).toEqual([]);
  // An integration may assign anything but Owner, internal integration roles included (observed on Ghost).
  expect(await names('?permissions=assign', t.integration())).toEqual(ALL_ROLES.filter((name) => name !== 'Owner'));
});

it('refuses other permissions values with 422', async () => {
  const res = await t.admin.get('/roles/?permissions=foo');
  expectRefused(res, 422, 'list roles', { context: 'Validation (AllowedValues) failed for permissions' });
});

it('requires authentication', async () => {
  const res = await t.admin.get('/roles/', NOBODY);
  expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'Authorization failed' });
});
