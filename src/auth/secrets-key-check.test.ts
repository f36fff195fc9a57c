import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestSite } from '../../test/test-site.js';
import { secretBox } from './secret-box.js';
import { checkSecretsKey } from './secrets-key-check.js';

const t = useTestSite({ setup: 'none' });

describe('the secrets key check at start', () => {
  it('tells a start with another key than the previous start, once per change', async () => {
    const first = secretBox(randomBytes(32));
    const second = secretBox(randomBytes(32));
    const at = new Date();
    expect(await checkSecretsKey(t.db, first, at)).toBe('first');
    expect(await checkSecretsKey(t.db, first, at)).toBe('same');
    // A second instance with a key of its own, then the first one restarting: each start is told.
    expect(await checkSecretsKey(t.db, second, at)).toBe('changed');
    expect(await checkSecretsKey(t.db, first, at)).toBe('changed');
    // The key changed on purpose: told once, then the new key is the one recorded.
    expect(await checkSecretsKey(t.db, second, at)).toBe('changed');
    expect(await checkSecretsKey(t.db, second, at)).toBe('same');
  });

  it('lets instances starting at once agree on one record', async () => {
    await t.db.deleteFrom('secrets_key_check').execute();
    const key = randomBytes(32);
    const outcomes = await Promise.all([0, 1, 2].map(() => checkSecretsKey(t.db, secretBox(key), new Date())));
    expect(outcomes.filter((outcome) => outcome === 'first')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'same')).toHaveLength(2);
  });
});
