import { describe, expect, it } from 'vitest';
import { PERMISSION_FIXTURES } from '../db/migrations/0003-staff.permissions.js';
import { hasPermission, permissionRowsOf } from './permissions.js';

describe('permission rows', () => {
  // Migration 0003 seeds a frozen copy of Ghost's rows; the typed table must name exactly those rows.
  it('the rows the code checks are the rows migration 0003 seeds', () => {
    const seeded = PERMISSION_FIXTURES.map(([object, action]) => `${object}.${action}`).sort();
    expect([...permissionRowsOf('Administrator')].sort()).toEqual(seeded);
  });

  it('the Owner holds every row without needing any', () => {
    expect(permissionRowsOf('Owner')).toEqual([]);
    expect(hasPermission({ role: 'Owner' }, 'db.deleteAllContent')).toBe(true);
    expect(hasPermission({ role: 'Contributor' }, 'tag.add')).toBe(false);
  });
});
