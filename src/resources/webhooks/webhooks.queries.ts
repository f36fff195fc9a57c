import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';

export function findWebhook(db: ReadDb, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function integrationExists(db: ReadDb, id: string): Promise<boolean> {
  return !!(await db.selectFrom('integrations').select('id').where('id', '=', id).executeTakeFirst());
}

/** A webhook with this event and target (both compared without case, as Ghost's duplicate check does). */
export async function sameWebhookExists(db: ReadDb, event: string, targetUrl: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['event']), '=', event.toLowerCase()))
    .where((eb) => eb(eb.fn('lower', ['target_url']), '=', targetUrl.toLowerCase()))
    .executeTakeFirst();
  return !!row;
}

/** Webhooks of several integrations in one query (`include=webhooks`), oldest first. */
export async function webhooksOf(db: ReadDb, integrationIds: readonly string[]): Promise<Map<string, WebhookRow[]>> {
  const byIntegration = new Map<string, WebhookRow[]>(integrationIds.map((id) => [id, []]));
  if (integrationIds.length === 0) return byIntegration;
  const rows = await db.selectFrom('webhooks').selectAll().where('integration_id', 'in', integrationIds).orderBy('created_at').orderBy('id').execute();
  for (const row of rows) byIntegration.get(row.integration_id)?.push(row);
  return byIntegration;
}

/** A webhook's latest deliveries, newest first. */
export function recentDeliveries(db: ReadDb, webhookId: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findDelivery(db: ReadDb, webhookId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('webhook_id', '=', webhookId).executeTakeFirst();
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(db: Db, id: string, changes: Partial<WebhookRow>): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

/** Removes a webhook with its delivery history. */
export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function insertDelivery(db: Db, row: WebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/** Removes an integration's webhooks with their delivery history. */
export async function deleteWebhooksOf(db: Db, integrationId: string): Promise<void> {
  const hooks = db.selectFrom('webhooks').select('id').where('integration_id', '=', integrationId);
  await db.deleteFrom('webhook_deliveries').where('webhook_id', 'in', hooks).execute();
  await db.deleteFrom('webhooks').where('integration_id', '=', integrationId).execute();
}
