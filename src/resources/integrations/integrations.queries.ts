import type { ReadDb } from '../../db/read-db.js';
import type { ApiKeyRow, IntegrationRow } from '../../db/schema.js';

/** Types shown by the API; `internal` integrations exist only for the service itself. */
export const LISTED_TYPES = ['custom', 'builtin', 'core'] as const;

export function findListedIntegration(db: ReadDb, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).where('type', 'in', LISTED_TYPES).executeTakeFirst();
}

export async function countListedIntegrations(db: ReadDb): Promise<number> {
  const row = await db
    .selectFrom('integrations')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('type', 'in', LISTED_TYPES)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function listIntegrations(db: ReadDb, window: { offset: number; limit: number | null }): Promise<IntegrationRow[]> {
  let query = db.selectFrom('integrations').selectAll().where('type', 'in', LISTED_TYPES).orderBy('created_at', 'asc').orderBy('id', 'asc');
  if (window.limit !== null) query = query.limit(window.limit).offset(window.offset);
  return query.execute();
}

/** API keys of several integrations in one query, content key first as Ghost lists them. */
export async function apiKeysOf(db: ReadDb, integrationIds: readonly string[]): Promise<Map<string, ApiKeyRow[]>> {
  const byIntegration = new Map<string, ApiKeyRow[]>(integrationIds.map((id) => [id, []]));
  if (integrationIds.length === 0) return byIntegration;
  const rows = await db.selectFrom('api_keys').selectAll().where('integration_id', 'in', integrationIds).orderBy('type', 'desc').orderBy('id').execute();
  for (const row of rows) byIntegration.get(row.integration_id!)?.push(row);
  return byIntegration;
}

/** The custom integration of that name, the oldest when earlier runs made several. */
export function integrationNamed(db: ReadDb, name: string): Promise<Pick<IntegrationRow, 'id' | 'created_at'> | undefined> {
  return db
    .selectFrom('integrations')
    .select(['id', 'created_at'])
    .where('type', '=', 'custom')
    .where('name', '=', name)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .executeTakeFirst();
}
