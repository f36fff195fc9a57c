import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { ActionRow } from '../../db/schema.js';
import { browseRoute } from '../../http/browse-route.js';
import { isoDate } from '../../content/dates.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { ACTIONS_BROWSE } from './actions.browse.js';
import { actorsOf, resourcesOf, type ResourceSummary } from './actions.queries.js';

const ACTION_INCLUDES = ['actor', 'resource'];

/** Image URLs are stored transform-ready; a record without an image column shows none. */
function withImage(summary: ResourceSummary | { image: string | null }, siteUrl: string) {
  return 'image' in summary ? { ...summary, image: fromStorageUrl(summary.image as string | null, siteUrl) } : summary;
}

async function presentActions(ctx: Ctx, rows: ActionRow[], include: readonly string[]) {
  const [actors, resources] = await Promise.all([
    include.includes('actor') ? actorsOf(ctx.db, rows) : null,
    include.includes('resource') ? resourcesOf(ctx.db, rows) : null,
  ]);
  return rows.map((row) => {
    const out: Record<string, unknown> = {
      id: row.id,
      resource_id: row.resource_id,
      resource_type: row.resource_type,
      actor_id: row.actor_id,
      actor_type: row.actor_type,
      event: row.event,
      context: row.context,
      created_at: isoDate(row.created_at),
    };
    // Ghost shows an included actor or resource that no longer exists as `{}`.
    if (actors) {
      const actor = actors.get(row.actor_id);
      out.actor = actor ? withImage(actor, ctx.site.url) : {};
    }
    if (resources) {
      const resource = row.resource_id ? resources.get(`${row.resource_type}:${row.resource_id}`) : undefined;
      out.resource = resource ? withImage(resource, ctx.site.url) : {};
    }
    return out;
  });
}

/** `GET /actions/`: the audit trail every write through `ctx.write` records (`events/actions.ts`). */
export function actionsRoutes(app: FastifyInstance) {
  browseRoute<ActionRow>(app, {
    docName: 'actions',
    api: 'admin',
    spec: ACTIONS_BROWSE,
    permission: 'action.browse',
    params: { include: ACTION_INCLUDES },
    present: (ctx, rows, params) => presentActions(ctx, rows, params.include),
  });
}
