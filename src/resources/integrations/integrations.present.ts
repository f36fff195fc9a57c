import type { ApiKeyRow, IntegrationRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import type { WebhookRow } from '../../db/schema.js';
import { presentWebhook } from '../webhooks/webhooks.present.js';

/** Admin keys are shown as `<id>:<secret>`, the form clients sign tokens with; content keys as the secret. */
export function presentApiKey(key: ApiKeyRow) {
  return {
    id: key.id,
    type: key.type,
    secret: key.type === 'admin' ? `${key.id}:${key.secret}` : key.secret,
    role_id: key.role_id,
    integration_id: key.integration_id,
    user_id: key.user_id,
    last_seen_at: isoDate(key.last_seen_at),
    last_seen_version: key.last_seen_version,
    created_at: isoDate(key.created_at),
    updated_at: isoDate(key.updated_at),
  };
}

export function presentIntegration(integration: IntegrationRow, apiKeys?: ApiKeyRow[], webhooks?: WebhookRow[]) {
  return {
    id: integration.id,
    type: integration.type,
    name: integration.name,
    slug: integration.slug,
    icon_image: integration.icon_image,
    description: integration.description,
    created_at: isoDate(integration.created_at),
    updated_at: isoDate(integration.updated_at),
    ...(apiKeys ? { api_keys: apiKeys.map(presentApiKey) } : {}),
    ...(webhooks ? { webhooks: webhooks.map(presentWebhook) } : {}),
  };
}
