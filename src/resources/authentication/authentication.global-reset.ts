import type { Db } from '../../db/connect.js';
import { now } from '../../db/ids.js';
import { sendResetMail, type ResetDeps } from './authentication.reset.js';

/**
 * `POST /authentication/global_password_reset/`: every user gets a reset link and is locked until they
 * use it; every session ends. The mails go first: if one is refused nobody is locked out without a way back in.
 */
export async function resetAllPasswords(deps: ResetDeps): Promise<void> {
  const db: Db = deps.db;
  const users = await db.selectFrom('users').selectAll().execute();
  for (const user of users) await sendResetMail(deps, user);
  await db.transaction().execute(async (trx) => {
    if (users.length > 0) await trx.updateTable('users').set({ status: 'locked', updated_at: now() }).where('id', 'in', users.map((u) => u.id)).execute();
    await trx.deleteFrom('sessions').execute();
  });
}
