import type { FastifyInstance } from 'fastify';
import type { Permission } from '../auth/permissions.js';
import type { BrowseSpec } from '../browse/browse.js';
import type { BrowseParamRules } from '../browse/params.js';
import type { Ctx } from '../ctx.js';
import { browseRoute } from './browse-route.js';
import { readRoutes, type KeyName, type ReadKey } from './read-routes.js';

/** A permission object with both a `browse` and a `read` row (`label`, `member`, …). */
type BrowsedObject = { [P in Permission]: P extends `${infer O}.browse` ? (`${O}.read` extends Permission ? O : never) : never }[Permission];

export interface ViewRoutes<Row, K extends KeyName> {
  /** The resource: paths under `/<docName>/`, envelope key and frame name. */
  docName: string;
  spec: BrowseSpec;
  /** The permission rows checked: `<object>.browse` and `<object>.read`. */
  object: BrowsedObject;
  /** `include` values both endpoints accept. */
  include: readonly string[];
  /** Browse's other option rules (members clamp `limit`). */
  params?: Omit<BrowseParamRules, 'include'>;
  /** Lookups served: `/:id/`, `/slug/:slug/`, `/email/:email/`. */
  keys: readonly K[];
  /** The 404 message when no record answers the key. */
  notFound: string;
  find: (ctx: Ctx, key: ReadKey<K>) => Promise<Row | null | undefined>;
  /** The resource's view (`<name>.views.ts`): rows presented with what `include` asks for loaded, for the endpoint named. */
  view: (ctx: Ctx, rows: Row[], include: readonly string[], method: 'browse' | 'read') => Promise<Record<string, unknown>[]>;
}

/**
 * An Admin API resource's browse and reads as one declaration, when both show records through the same
 * view: `browseRoute` and `readRoutes` with the permission rows of one object and one `include` list.
 */
export function viewRoutes<Row, K extends KeyName>(app: FastifyInstance, route: ViewRoutes<Row, K>): void {
  const { docName, include, view } = route;
  browseRoute<Row>(app, {
    docName,
    api: 'admin',
    spec: route.spec,
    permission: `${route.object}.browse` as Permission,
    params: { ...route.params, include },
    present: (ctx, rows, params) => view(ctx, rows, params.include, 'browse'),
  });
  readRoutes(app, {
    docName,
    keys: route.keys,
    permission: `${route.object}.read` as Permission,
    include,
    notFound: route.notFound,
    read: async (ctx, key, request) => {
      const row = await route.find(ctx, key);
      return row ? (await view(ctx, [row], request.include, 'read'))[0] : undefined;
    },
  });
}
