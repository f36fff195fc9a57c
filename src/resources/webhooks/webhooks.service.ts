import type { Ctx } from '../../ctx.js';
import type { ReadDb } from '../../db/read-db.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { assertPublicTarget, PrivateAddressError } from '../../jobs/addresses.js';
import { pendingDelivery } from '../../jobs/webhook-fanout.js';
import {
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertDelivery,
  insertWebhook,
  integrationExists,
  sameWebhookExists,
  updateWebhook,
} from './webhooks.queries.js';
import type { WebhookInput } from './webhooks.schemas.js';

/** Ghost's default `api_version`: the server's major.minor. */
const API_VERSION = 'v5.130';

export interface WebhookRules {
  /** `WEBHOOK_ALLOW_PRIVATE`: targets on loopback and private networks are allowed. */
  allowPrivate: boolean;
}

/** The calling integration, for an integration key; null for staff (session or staff token). */
const callingIntegration = (ctx: Ctx): string | null => {
  const actor = actorOf(ctx);
  return actor.kind === 'integration' ? actor.apiKey.integration_id : null;
};

/** Refuses a target on a private network, unless allowed (checked again when each delivery is sent). */
async function checkTarget(targetUrl: string | undefined, rules: WebhookRules): Promise<void> {
  if (targetUrl === undefined || rules.allowPrivate) return;
  try {
    await assertPublicTarget(targetUrl);
  } catch (err) {
    if (!(err instanceof PrivateAddressError)) throw err;
    throw errors.validation({
      message: 'Validation failed for target_url.',
      context:
        'The target URL is, or resolves to, a loopback, private or link-local address, which webhooks may not reach unless the server is started with WEBHOOK_ALLOW_PRIVATE=true.',
      property: 'target_url',
    });
  }
}

/**
 * The webhook an edit, delete or history call names. An integration key reaches only its own integration's
 * webhooks (Ghost's messages); staff reach every webhook.
 */
export async function reachableWebhook(ctx: Ctx, db: ReadDb, id: string, method: 'edit' | 'destroy'): Promise<WebhookRow> {
  const integrationId = callingIntegration(ctx);
  const webhook = await findWebhook(db, id);
  if (integrationId === null) {
    if (!webhook) throw errors.notFound();
    return webhook;
  }
  if (!webhook) throw errors.notFound('Webhook not found.');
  if (webhook.integration_id !== integrationId) {
    throw errors.noPermission({
      message: `You do not have permission to ${method} this webhook.`,
      context: `You may only ${method} webhooks that belong to the authenticated integration. Check the supplied Admin API Key.`,
    });
  }
  return webhook;
}

/** `POST /webhooks/`: for an integration key, always the caller's integration; staff must name one. */
export async function addWebhook(ctx: Ctx, input: WebhookInput & { event: string; target_url: string }, rules: WebhookRules): Promise<WebhookRow> {
  const integrationId = callingIntegration(ctx) ?? input.integration_id;
  if (!integrationId) {
    throw errors.validation({
      message: "Validation failed for 'integration_id'.",
      context: "You may only create webhooks with 'integration_id' when using session authentication.",
      property: 'integration_id',
    });
  }
  await checkTarget(input.target_url, rules);
  return ctx.write(async ({ db, clock }) => {
    if (!(await integrationExists(db, integrationId))) {
      throw errors.validation({
        message: "Validation failed for 'integration_id'.",
        context: "'integration_id' value does not match any existing integration.",
        property: 'integration_id',
      });
    }
    if (await sameWebhookExists(db, input.event, input.target_url)) throw errors.validation('Target URL has already been used for this event.');
    const at = clock.now();
    const row: WebhookRow = {
      id: objectId(),
      event: input.event,
      target_url: input.target_url,
      name: input.name ?? null,
      secret: input.secret ?? null,
      api_version: input.api_version ?? API_VERSION,
      integration_id: integrationId,
      last_triggered_at: null,
      last_triggered_status: null,
      last_triggered_error: null,
      created_at: at,
      updated_at: at,
    };
    await insertWebhook(db, row);
    return row;
  });
}

/** `PUT /webhooks/:id/`: name, event, target, secret and api_version; the integration never changes. */
export async function editWebhook(ctx: Ctx, id: string, input: WebhookInput, rules: WebhookRules): Promise<WebhookRow> {
  await checkTarget(input.target_url, rules);
  return ctx.write(async ({ db, clock }) => {
    const existing = await reachableWebhook(ctx, db, id, 'edit');
    const changes = Object.fromEntries(
      (['name', 'event', 'target_url', 'secret', 'api_version'] as const).filter((key) => input[key] !== undefined).map((key) => [key, input[key]]),
    ) as Partial<WebhookRow>;
    const changed = Object.entries(changes).some(([key, value]) => existing[key as keyof WebhookRow] !== value);
    if (!changed) return existing;
    const update = { ...changes, updated_at: clock.now() };
    await updateWebhook(db, id, update);
    return { ...existing, ...update };
  });
}

/** `DELETE /webhooks/:id/`, with its delivery history; deliveries in flight are dropped. */
export async function destroyWebhook(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async ({ db }) => {
    await reachableWebhook(ctx, db, id, 'destroy');
    await deleteWebhook(db, id);
  });
}

/**
 * Sends a past delivery's event again, as a new delivery queued behind the webhook's pending ones; the old
 * delivery's record stays as it was.
 */
export async function redeliver(ctx: Ctx, webhookId: string, deliveryId: string): Promise<WebhookDeliveryRow> {
  return ctx.write(async ({ db, clock }) => {
    await reachableWebhook(ctx, db, webhookId, 'edit');
    const original = await findDelivery(db, webhookId, deliveryId);
    if (!original) throw errors.notFound('Delivery not found.');
    const at = new Date(clock.epochMs());
    const row = pendingDelivery(original.webhook_id, { id: original.outbox_id, event: original.event, created_at: at }, at);
    await insertDelivery(db, row);
    return row;
  });
}
