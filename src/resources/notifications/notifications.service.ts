import type { Ctx } from '../../ctx.js';
import type { NotificationRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import type { NotificationInput } from './notifications.schemas.js';

/** The version notifications are created at; Ghost hides an unseen one made by a newer version after a downgrade. */
const VERSION = '5.130.6';

/** Who is dismissing or reading: the staff user (notifications are not open to integrations). */
const readerOf = (ctx: Ctx) => ctx.actor?.user?.id ?? ctx.actingUserId;

/** The notifications a user has not dismissed, newest first (Ghost's `notifications.browse`). */
export async function browseNotifications(ctx: Ctx): Promise<Record<string, unknown>[]> {
  const rows = await ctx.db
    .selectFrom('notifications')
    .select(['data'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications_seen')
            .select('notification_id')
            .whereRef('notifications_seen.notification_id', '=', 'notifications.id')
            .where('notifications_seen.user_id', '=', readerOf(ctx)),
        ),
      ),
    )
    .orderBy('added_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => JSON.parse(row.data) as Record<string, unknown>);
}

/**
 * Adds the notifications whose id is new, with Ghost's defaults (`dismissible`, `location`, `status`, an id);
 * a release notification (`custom` not set) replaces earlier release notifications, and of several sent
 * at once only the newest (`created_at`) is kept. Returns those added.
 */
export async function addNotifications(ctx: Ctx, input: NotificationInput[]): Promise<Record<string, unknown>[]> {
  return ctx.write(async ({ db, clock }) => {
    // Ids are the client's to choose (Ghost stores any); they must fit the key column.
    if (input.some((given) => given.id !== undefined && String(given.id).length > 191))
      throw errors.validation({ message: 'Notification ids are at most 191 characters long.' });
    const existing = new Set((await db.selectFrom('notifications').select('id').execute()).map((row) => row.id));
    let toAdd = input
      .map((given): NotificationInput => ({ dismissible: true, location: 'bottom', status: 'alert', id: objectId(), ...given }))
      .filter((notification) => !existing.has(String(notification.id)));
    if (input.some((given) => !given.custom)) await db.deleteFrom('notifications').where('custom', '=', false).execute();
    const releases = toAdd.filter((notification) => !notification.custom);
    if (releases.length > 1) {
      const newest = [...releases].sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')))[0]!;
      toAdd = [...toAdd.filter((notification) => notification.custom), newest];
    }
    const at = clock.now();
    const rows: NotificationRow[] = toAdd.map((notification) => ({
      id: String(notification.id),
      data: JSON.stringify({ ...notification, id: String(notification.id) }),
      custom: !!notification.custom,
      created_at_version: VERSION,
      added_at: at,
    }));
    if (rows.length) await db.insertInto('notifications').values(rows).execute();
    return rows.map((row) => JSON.parse(row.data) as Record<string, unknown>);
  });
}

/** Dismisses a notification for the caller only (Ghost keeps it for everyone else). */
export async function dismissNotification(ctx: Ctx, id: string): Promise<void> {
  const user = readerOf(ctx);
  await ctx.write(async ({ db }) => {
    const row = await db.selectFrom('notifications').select(['data']).where('id', '=', id).executeTakeFirst();
    if (row && (JSON.parse(row.data) as { dismissible?: unknown }).dismissible === false) {
      throw errors.noPermission({ message: 'You do not have permission to dismiss this notification.' });
    }
    if (!row) throw errors.notFound({ message: 'Notification does not exist.' });
    const seen = await db.selectFrom('notifications_seen').select('user_id').where('notification_id', '=', id).where('user_id', '=', user).executeTakeFirst();
    if (!seen) await db.insertInto('notifications_seen').values({ notification_id: id, user_id: user }).execute();
  });
}
