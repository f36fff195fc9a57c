import type { Db } from '../db/connect.js';
import { objectId } from '../db/ids.js';
import type { EventName, EventPayloads } from './names.js';

/** What a write asks to be announced once it commits (webhooks, later other subscribers). */
export interface RecordedEvent {
  name: string;
  /** Serialised to JSON as given; the events issue decides each event's shape. */
  payload: unknown;
  resource?: { type: string; id: string };
}

/** Only the names `events/names.ts` lists, each with its payload's type. */
export interface EventRecorder {
  record<N extends EventName>(name: N, payload: EventPayloads[N], resource?: { type: string; id: string }): void;
}

/**
 * Writes a finished attempt's events into the outbox, inside that attempt's transaction: they commit with
 * the change or not at all. Rows start `pending` and due at once; the job runner claims them with a lease.
 */
export async function writeOutbox(trx: Db, events: readonly RecordedEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('outbox')
    .values(
      events.map((event) => ({
        id: objectId(),
        event: event.name,
        resource_type: event.resource?.type ?? null,
        resource_id: event.resource?.id ?? null,
        payload: JSON.stringify(event.payload ?? null),
        status: 'pending' as const,
        attempts: 0,
        available_at: at,
        lease_owner: null,
        lease_expires_at: null,
        created_at: at,
      })),
    )
    .execute();
}
