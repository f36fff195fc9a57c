import { nullableString, requiring, Type, type Static } from '../../http/schema.js';
import { schemaBody } from '../../http/parse-body.js';
import { errors } from '../../errors.js';
import { isWebhookEvent, WEBHOOK_EVENTS } from './webhooks.events.js';

/**
 * The writable webhook fields of `@tryghost/admin-api-schema` (`webhooks.json`); others are dropped. Then the
 * event must be one that fires: Ghost accepts any lower-case name, which is never called (README, Errors).
 */
const WEBHOOK = Type.Partial(
  Type.Object(
    {
      event: Type.String({ maxLength: 50, pattern: '^[^A-Z]*$' }),
      target_url: Type.String({ format: 'uri-reference', maxLength: 2000 }),
      name: nullableString(191),
      secret: nullableString(191),
      api_version: Type.String({ maxLength: 50 }),
      integration_id: Type.String({ maxLength: 24 }),
    },
    { $base: 'webhooks#/definitions/webhook', additionalProperties: false },
  ),
);

/** Runs after the schema, so `event` is a lower-case string of at most 50 characters here. */
function checkEvent({ event }: { event?: string }): void {
  if (event === undefined || isWebhookEvent(event)) return;
  throw errors.validation({
    message: 'Validation failed for event.',
    context: `Unknown event '${event}'. Webhooks can subscribe to: ${WEBHOOK_EVENTS.join(', ')}.`,
    property: 'event',
  });
}

export const WEBHOOK_ADD = schemaBody('webhooks', requiring(WEBHOOK, ['event', 'target_url']), { check: checkEvent });
export const WEBHOOK_EDIT = schemaBody('webhooks', WEBHOOK, { check: checkEvent });
export type WebhookInput = Static<typeof WEBHOOK>;
