import type { ApiKeyRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { actorOf, type Actor } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { objectId, randomHex } from '../../db/ids.js';
import { isoDate } from '../../content/dates.js';
import { roleIdByName } from './users.queries.js';
import { resolveUserId } from './users.service.js';

/**
 * Staff access tokens: one admin API key per user (`api_keys.user_id`), signed like an integration's key
 * but acting as the user with the user's role. Only the user may read or renew their own.
 */
function ownUserId(actor: Actor, id: string): string {
  const target = resolveUserId(actor, id);
  if (!actor.user || target !== actor.user.id) throw errors.noPermission('You do not have permission to perform this action');
  return target;
}

const findKey = (db: Ctx['autocommitDb'], userId: string) =>
  db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').executeTakeFirst();

/**
 * Outside `ctx.write` on purpose (see `Ctx.autocommitDb`): Ghost records no action for a staff token, and a
 * race between two first reads settles itself (both keep the oldest key).
 */
async function findOrCreateKey({ autocommitDb: db, clock }: Ctx, userId: string): Promise<ApiKeyRow> {
  const existing = await findKey(db, userId);
  if (existing) return existing;
  const at = clock.now();
  // Ghost gives staff keys the Admin Integration role; it is never used, the user's role decides.
  const key: ApiKeyRow = {
    id: objectId(),
    type: 'admin',
    secret: randomHex(32),
    role_id: await roleIdByName(db, 'Admin Integration'),
    integration_id: null,
    user_id: userId,
    last_seen_at: null,
    last_seen_version: null,
    created_at: at,
    created_by: userId,
    updated_at: at,
    updated_by: userId,
  };
  await db.insertInto('api_keys').values(key).execute();
  // Two first reads racing each insert a key: both then keep the oldest and drop the rest.
  const keys = await db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
  if (keys.length > 1) await db.deleteFrom('api_keys').where('user_id', '=', userId).where('id', '!=', keys[0]!.id).execute();
  return keys[0]!;
}

export async function readStaffToken(ctx: Ctx, id: string): Promise<ApiKeyRow> {
  return findOrCreateKey(ctx, ownUserId(actorOf(ctx), id));
}

/** A new secret: the old token stops working at once. */
export async function regenerateStaffToken(ctx: Ctx, id: string): Promise<ApiKeyRow> {
  const key = await findOrCreateKey(ctx, ownUserId(actorOf(ctx), id));
  const changes = { secret: randomHex(32), updated_at: ctx.clock.now(), updated_by: key.user_id };
  await ctx.autocommitDb.updateTable('api_keys').set(changes).where('id', '=', key.id).execute();
  return { ...key, ...changes };
}

/** The staff token as Ghost shows it: the raw secret, not the `<id>:<secret>` form of integrations. */
export function presentStaffToken(key: ApiKeyRow) {
  return {
    id: key.id,
    type: key.type,
    secret: key.secret,
    user_id: key.user_id,
    role_id: key.role_id,
    integration_id: key.integration_id,
    last_seen_at: isoDate(key.last_seen_at),
    last_seen_version: key.last_seen_version,
    created_at: isoDate(key.created_at),
    updated_at: isoDate(key.updated_at),
  };
}
