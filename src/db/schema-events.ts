/** Row types of the outbox migration (0005). */
export interface EventTables {
  outbox: OutboxRow;
}

/**
 * One event recorded by a committed write, waiting to be handed on (webhook deliveries). Claimed by the
 * job runner with a lease: `lease_owner` until `lease_expires_at`; an expired lease may be claimed again.
 */
export interface OutboxRow {
  id: string;
  /** Ghost's event name, e.g. `post.published`. */
  event: string;
  resource_type: string | null;
  resource_id: string | null;
  /** JSON. */
  payload: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  /** Not to be claimed before this moment (backoff after a failed attempt). */
  available_at: Date;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  created_at: Date;
}

/** Row types of the webhooks migration (0012). */
export interface WebhookTables {
  webhooks: WebhookRow;
  webhook_deliveries: WebhookDeliveryRow;
}

/** Ghost's webhook: one event name, one target, owned by an integration. */
export interface WebhookRow {
  id: string;
  /** Lower-case; any name is accepted, only the ones the service fires are ever delivered. */
  event: string;
  target_url: string;
  name: string | null;
  /** Signs deliveries (`X-Ghost-Signature`) when non-empty. Ghost shows it in clear text. */
  secret: string | null;
  api_version: string;
  integration_id: string;
  last_triggered_at: Date | null;
  /** The receiver's status code as a string (`"200"`), null after a network error. */
  last_triggered_status: string | null;
  last_triggered_error: string | null;
  created_at: Date;
  updated_at: Date | null;
}

/**
 * One event for one webhook: claimed by the job runner with a lease like an outbox row; kept afterwards
 * as the delivery history (`GET /webhooks/:id/deliveries/`).
 */
export interface WebhookDeliveryRow {
  id: string;
  webhook_id: string;
  /** The outbox row whose payload is sent. */
  outbox_id: string;
  event: string;
  /** When the event was recorded: with `outbox_id`, the order deliveries of one webhook go out in. */
  event_at: Date;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Not to be claimed before this moment (backoff after a failed attempt). */
  available_at: Date;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  /** The last attempt's HTTP status, null when it got no answer. */
  response_status: number | null;
  /** The last attempt's failure, null after a success. */
  error: string | null;
  latency_ms: number | null;
  /** The start of the last answer's body, for the delivery history. */
  response_excerpt: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}
