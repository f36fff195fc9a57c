import { sql } from 'kysely';
import type { ReadDb } from '../../db/read-db.js';
import type { ActionRow } from '../../db/schema.js';

export interface ActorSummary {
  id: string;
  name: string;
  slug: string;
  image: string | null;
}

export type ResourceSummary = { id: string } & Record<string, unknown>;

const ids = (rows: ActionRow[], type: string, key: 'actor' | 'resource') => [
  ...new Set(rows.filter((row) => row[`${key}_type`] === type && row[`${key}_id`]).map((row) => row[`${key}_id`]!)),
];

/** The users and integrations who did the actions, by id (Ghost's `include=actor`). */
export async function actorsOf(db: ReadDb, rows: ActionRow[]): Promise<Map<string, ActorSummary>> {
  const userIds = ids(rows, 'user', 'actor');
  const integrationIds = ids(rows, 'integration', 'actor');
  const [users, integrations] = await Promise.all([
    userIds.length ? db.selectFrom('users').select(['id', 'name', 'slug', 'profile_image as image']).where('id', 'in', userIds).execute() : [],
    integrationIds.length
      ? db.selectFrom('integrations').select(['id', 'name', 'slug', 'icon_image as image']).where('id', 'in', integrationIds).execute()
      : [],
  ]);
  return new Map([...users, ...integrations].map((actor) => [actor.id, actor]));
}

/** Where each resource type lives and which of Ghost's shown columns (`id, title, slug, feature_image, name`) it has. */
const RESOURCE_TABLES: Readonly<Record<string, { table: string; columns: readonly string[] }>> = {
  post: { table: 'posts', columns: ['id', 'title', 'slug', 'feature_image'] },
  tag: { table: 'tags', columns: ['id', 'slug', 'feature_image', 'name'] },
  user: { table: 'users', columns: ['id', 'slug', 'name'] },
  snippet: { table: 'snippets', columns: ['id', 'name'] },
  integration: { table: 'integrations', columns: ['id', 'slug', 'name'] },
  api_key: { table: 'api_keys', columns: ['id'] },
  invite: { table: 'invites', columns: ['id'] },
  setting: { table: 'settings', columns: ['id'] },
};

/**
 * The records the actions were done to, as Ghost's `include=resource` shows them (a feature image as
 * `image`), keyed `<type>:<id>`. Deleted records and types stored elsewhere are absent.
 */
export async function resourcesOf(db: ReadDb, rows: ActionRow[]): Promise<Map<string, ResourceSummary>> {
  const found = new Map<string, ResourceSummary>();
  await Promise.all(
    Object.entries(RESOURCE_TABLES).map(async ([type, { table, columns }]) => {
      const wanted = ids(rows, type, 'resource');
      if (wanted.length === 0) return;
      // Table and column names come from the map above, never from the request.
      const selected = sql.join(columns.map((column) => sql.ref(column)));
      const { rows: records } = await sql<Record<string, unknown>>`select ${selected} from ${sql.table(table)} where id in (${sql.join(wanted)})`.execute(db);
      for (const record of records) {
        const { feature_image: image, ...rest } = record;
        found.set(`${type}:${String(record.id)}`, { ...(rest as ResourceSummary), ...(columns.includes('feature_image') ? { image } : {}) });
      }
    }),
  );
  return found;
}
