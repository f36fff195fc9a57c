import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSealed, resolveSecretsKey, secretBox } from './secret-box.js';

describe('secret box', () => {
  const box = secretBox(randomBytes(32));
  const secret = randomBytes(20);

  it('seals a 20-byte key into the existing 64-character column, and opens it again', () => {
    const sealed = box.seal(secret, 'staff_authenticators.secret:u1');
    expect(sealed.length).toBeLessThanOrEqual(64);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret.toString('base64url'));
    expect(box.open(sealed, 'staff_authenticators.secret:u1')).toEqual(secret);
    expect(box.seal(secret, 'staff_authenticators.secret:u1')).not.toBe(sealed);
  });

  it('refuses a value moved to another row, sealed with another key, or changed', () => {
    const sealed = box.seal(secret, 'staff_authenticators.secret:u1');
    expect(() => box.open(sealed, 'staff_authenticators.secret:u2')).toThrow('does not open with this SECRETS_KEY');
    expect(() => secretBox(randomBytes(32)).open(sealed, 'staff_authenticators.secret:u1')).toThrow('does not open with this SECRETS_KEY');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => box.open(flipped, 'staff_authenticators.secret:u1')).toThrow('does not open with this SECRETS_KEY');
  });

  it('tells a sealed value from a plain base32 secret stored before sealing', () => {
    expect(isSealed('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toBe(false);
  });
});

describe('secrets key', () => {
  it('is SECRETS_KEY when set', () => {
    const key = randomBytes(32);
    expect(resolveSecretsKey({ secretsKey: key, contentDir: '/nonexistent' })).toEqual({ key, file: null });
  });

  it('otherwise is made once into CONTENT_DIR/data/secrets.key, readable by the owner only, and reused', () => {
    const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-secrets-'));
    const first = resolveSecretsKey({ secretsKey: null, contentDir });
    expect(first.file).toBe(path.join(contentDir, 'data', 'secrets.key'));
    expect(first.key).toHaveLength(32);
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file!, 'utf8')).toBe(`${first.key.toString('hex')}\n`);
    expect(resolveSecretsKey({ secretsKey: null, contentDir }).key).toEqual(first.key);
  });
});
