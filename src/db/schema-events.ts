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
