import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** Ghost's webhook shape; the secret is shown in clear text, as Ghost shows it. */
export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    event: row.event,
    target_url: row.target_url,
    name: row.name,
    secret: row.secret,
    api_version: row.api_version,
    integration_id: row.integration_id,
    last_triggered_at: isoDate(row.last_triggered_at),
    last_triggered_status: row.last_triggered_status,
    last_triggered_error: row.last_triggered_error,
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
  };
}

/** One delivery in the history (not a Ghost shape: Ghost keeps no history). */
export function presentDelivery(row: WebhookDeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    error: row.error,
    latency_ms: row.latency_ms,
    response_excerpt: row.response_excerpt,
    next_attempt_at: row.status === 'pending' ? isoDate(row.available_at) : null,
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
    delivered_at: isoDate(row.delivered_at),
  };
}
