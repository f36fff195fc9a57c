import type { Db } from '../db/connect.js';
import { ConstraintError, translated } from '../db/errors.js';
import type { SecretBox } from './secret-box.js';

const NAME = 'secrets';
const CONTEXT = 'secrets_key_check.sealed';
const PROBE = Buffer.from('quire');

/**
 * Whether this instance's secrets key is the one the instance that started before it on this database used.
 * Instances that share no CONTENT_DIR and are not given one SECRETS_KEY each make a key of their own, and an
 * authenticator-app key sealed by one then fails to open on the others: codes fail on some requests only. At
 * start, each instance opens a probe sealed by the previous start; `changed` means it could not, and the probe
 * is sealed again with this key, so a key changed on purpose is reported once, and instances that disagree
 * are reported at every start of either.
 */
export async function checkSecretsKey(db: Db, secrets: SecretBox, at: Date): Promise<'first' | 'same' | 'changed'> {
  const row = await db.selectFrom('secrets_key_check').select('sealed').where('name', '=', NAME).executeTakeFirst();
  if (!row) {
    try {
      await translated(() =>
        db
          .insertInto('secrets_key_check')
          .values({ name: NAME, sealed: secrets.seal(PROBE, CONTEXT), updated_at: at })
          .execute(),
      );
      return 'first';
    } catch (err) {
      // Another instance starting at the same moment recorded its own: compare with that one.
      if (err instanceof ConstraintError && err.kind === 'unique') return checkSecretsKey(db, secrets, at);
      throw err;
    }
  }
  try {
    if (secrets.open(row.sealed, CONTEXT).equals(PROBE)) return 'same';
  } catch {
    // Sealed with another key.
  }
  await db
    .updateTable('secrets_key_check')
    .set({ sealed: secrets.seal(PROBE, CONTEXT), updated_at: at })
    .where('name', '=', NAME)
    .execute();
  return 'changed';
}
