import { nullableString, requiring, Type, type Static } from '../../http/schema.js';
import { schemaBody } from '../../http/parse-body.js';

/**
 * The writable webhook fields of `@tryghost/admin-api-schema` (`webhooks.json`); others are dropped. Event
 * names are not checked against the events that fire (Ghost accepts any lower-case name, which never fires).
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

export const WEBHOOK_ADD = schemaBody('webhooks', requiring(WEBHOOK, ['event', 'target_url']));
export const WEBHOOK_EDIT = schemaBody('webhooks', WEBHOOK);
export type WebhookInput = Static<typeof WEBHOOK>;
