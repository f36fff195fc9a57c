import type { Ctx } from '../../ctx.js';
import { sendResetMail } from './authentication.reset.js';

/**
 * `POST /authentication/global_password_reset/`: every user gets a reset link and is locked until they
 * use it; every session ends. The mails go first: if one is refused nobody is locked out without a way back in.
 */
export async function resetAllPasswords(ctx: Ctx): Promise<void> {
  const users = await ctx.db.selectFrom('users').selectAll().execute();
  for (const user of users) await sendResetMail(ctx, user);
  await ctx.write(async ({ db: trx, clock }) => {
    if (users.length > 0)
      await trx
        .updateTable('users')
        .set({ status: 'locked', updated_at: clock.now() })
        .where(
          'id',
          'in',
          users.map((u) => u.id),
        )
        .execute();
    await trx.deleteFrom('sessions').execute();
  });
}
