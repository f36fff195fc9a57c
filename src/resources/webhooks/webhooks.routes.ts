import type { FastifyInstance } from 'fastify';
import { assertIdParam } from '../../http/validate.js';
import { framesOf } from '../../http/frame.js';
import { writeRoutes } from '../../http/write-routes.js';
import { errors } from '../../errors.js';
import { WEBHOOK_ADD, WEBHOOK_EDIT } from './webhooks.schemas.js';
import { presentDelivery, presentWebhook } from './webhooks.present.js';
import { recentDeliveries } from './webhooks.queries.js';
import { addWebhook, destroyWebhook, editWebhook, reachableWebhook, redeliver, type WebhookRules } from './webhooks.service.js';

type Params = { id: string; delivery_id: string };
type Query = Record<string, unknown>;

const frame = framesOf('webhooks');
const DEFAULT_DELIVERIES = 50;
const MAX_DELIVERIES = 200;

function deliveriesLimit(raw: unknown): number {
  if (raw === undefined) return DEFAULT_DELIVERIES;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value < 1 || value > MAX_DELIVERIES)
    throw errors.validation({ message: 'Validation (matches) failed for limit', context: `limit must be a whole number from 1 to ${MAX_DELIVERIES}` });
  return value;
}

/**
 * Ghost's webhook endpoints (no list or read: webhooks are listed through `/integrations/?include=webhooks`),
 * and two of Quire's own: a webhook's delivery history and redelivering one of them.
 */
export function webhooksRoutes(app: FastifyInstance, rules: WebhookRules) {
  writeRoutes(app, {
    docName: 'webhooks',
    add: {
      permission: 'webhook.add',
      body: WEBHOOK_ADD,
      // Ghost's webhook creation sets no Location header.
      location: false,
      run: (ctx, input) => addWebhook(ctx, input, rules),
      present: (_ctx, row) => [presentWebhook(row)],
    },
    edit: {
      permission: 'webhook.edit',
      body: WEBHOOK_EDIT,
      run: (ctx, id, input) => editWebhook(ctx, id, input, rules),
      present: (_ctx, row) => [presentWebhook(row)],
    },
    destroy: { permission: 'webhook.destroy', run: (ctx, id) => destroyWebhook(ctx, id) },
  });

  // Beyond Ghost: whoever may edit a webhook may see and repeat its deliveries.
  app.get<{ Params: Params; Querystring: Query }>(
    '/webhooks/:id/deliveries/',
    { config: { frame: frame('browse'), permission: 'webhook.edit' } },
    async (request) => {
      assertIdParam(request.params.id);
      const limit = deliveriesLimit(request.query.limit);
      const { ctx } = request;
      const webhook = await reachableWebhook(ctx, ctx.db, request.params.id, 'edit');
      return { deliveries: (await recentDeliveries(ctx.db, webhook.id, limit)).map(presentDelivery) };
    },
  );

  app.post<{ Params: Params }>(
    '/webhooks/:id/deliveries/:delivery_id/redeliver/',
    { config: { frame: frame('edit'), permission: 'webhook.edit' } },
    async (request, reply) => {
      assertIdParam(request.params.id);
      if (!/^[a-f\d]{24}$/.test(request.params.delivery_id)) throw errors.notFound('Delivery not found.');
      const row = await redeliver(request.ctx, request.params.id, request.params.delivery_id);
      reply.status(201);
      return { deliveries: [presentDelivery(row)] };
    },
  );
}
