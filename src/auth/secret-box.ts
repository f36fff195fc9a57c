import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * Seals small secrets (authenticator-app keys) for storage in the database, so a copy of the database
 * alone cannot produce anyone's codes. AES-256-GCM under the configured key.
 */
export interface SecretBox {
  /**
   * `context` names where the value lives (table, column, row id). It is authenticated, not stored: a
   * sealed value copied into another row does not open there.
   */
  seal(secret: Uint8Array, context: string): string;
  open(sealed: string, context: string): Buffer;
}

// Format `1` + base64url(iv | tag | ciphertext): a 20-byte authenticator key seals to 60 characters, which
// fits the existing varchar(64) column. The tag is 12 bytes (96 bits, one of the lengths NIST SP 800-38D
// allows) so that the version mark fits too; a later format can widen the column and use a new mark.
const VERSION = '1';
const IV_BYTES = 12;
const TAG_BYTES = 12;

export const isSealed = (value: string) => value.startsWith(VERSION);

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  return {
    seal(secret, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(secret), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, context) {
      if (!isSealed(sealed)) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
        .setAAD(Buffer.from(context))
        .setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch {
        throw new Error(`a stored secret (${context}) does not open with this SECRETS_KEY: it was sealed with another key, or changed`);
      }
    },
  };
}

export interface SecretsKey {
  key: Buffer;
  /** The file the key came from; null when `SECRETS_KEY` gave it. */
  file: string | null;
}

/**
 * `SECRETS_KEY` when set; otherwise the key in `CONTENT_DIR/data/secrets.key`, made on first start
 * (mode 600). Instances that do not share that folder must share `SECRETS_KEY` instead.
 */
export function resolveSecretsKey(config: Pick<Config, 'secretsKey' | 'contentDir'>): SecretsKey {
  if (config.secretsKey) return { key: config.secretsKey, file: null };
  // A local file, not through storage: the key is configuration, read once at start; instances share it
  // through SECRETS_KEY, not through a bucket that others may read.
  const file = path.join(config.contentDir, 'data', 'secrets.key');
  if (!existsSync(file)) {
    // The folder also holds the SQLite database: only this user may list it (700).
    if (!existsSync(path.dirname(file))) {
      mkdirSync(path.dirname(path.dirname(file)), { recursive: true });
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    }
    // Written whole under a temporary name, then linked into place: of two instances starting at once on
    // the same folder, one key wins and neither reads a half-written file.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(draft);
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${file}: must hold 64 hex characters (a 32-byte key)`);
  return { key: Buffer.from(text, 'hex'), file };
}
