import type { FastifyInstance } from 'fastify';
import { isEmail } from '../db/string-checks.js';
import type { Permission } from '../auth/permissions.js';
import { parseInclude } from '../browse/include.js';
import { parseFormats } from '../browse/params.js';
import { parseFields, projectRead } from '../browse/projection.js';
import type { Ctx } from '../ctx.js';
import { errors } from '../errors.js';
import { assertIdParam, assertSlugParam } from './validate.js';

type Query = Record<string, unknown>;
export type KeyName = 'id' | 'slug' | 'email';

/** What a record is looked up by: `{ id }`, `{ slug }` or `{ email }`. */
export type ReadKey<K extends KeyName = 'id' | 'slug'> = { [N in K]: { [P in N]: string } }[K];

export interface ReadRequest {
  query: Query;
  /** `include` values the request named (endpoint defaults are the resource's to add). */
  include: string[];
  /** Requested formats (checked against the route's); null when absent. */
  formats: string[] | null;
}

export interface ReadRoutes<K extends KeyName> {
  /** The resource: paths under `/<docName>/`, envelope key and frame name. */
  docName: string;
  /** Lookups served: `/:id/`, `/slug/:slug/`, `/email/:email/`. */
  keys: readonly K[];
  /** Permission row checked before the handler (Admin API); Content routes have none. */
  permission?: Permission;
  /** `include` and `formats` values the endpoint accepts. */
  include?: readonly string[];
  formats?: readonly string[];
  /** The 404 message when no record answers the key. */
  notFound: string;
  /** The record as this API shows it, or undefined when it does not exist here. */
  read: (ctx: Ctx, key: ReadKey<K>, request: ReadRequest) => Promise<Record<string, unknown> | undefined>;
  /** Tags: with an `include`, Ghost reads every column and ignores `fields`. */
  fieldsIgnoredWithInclude?: boolean;
}

/** How each key appears in the URL and how Ghost validates it (a 422 before anything is read). */
const KEYS: Record<KeyName, { path: string; assert: (value: string) => void }> = {
  id: { path: ':id', assert: assertIdParam },
  slug: { path: 'slug/:slug', assert: assertSlugParam },
  email: {
    path: 'email/:email',
    assert: (email) => {
      if (!isEmail(email)) throw errors.validation({ message: 'Validation (isEmail) failed for email', context: 'undefined.email' });
    },
  },
};

/**
 * `GET /<docName>/:id/`, `/slug/:slug/` (and `/email/:email/`): the key checked, options parsed, one
 * record read and presented, `fields` applied with the lookup key first (projectRead). `filter` on a read
 * is accepted and ignored, as in Ghost.
 */
export function readRoutes<K extends KeyName>(app: FastifyInstance, route: ReadRoutes<K>): void {
  const config = { frame: { docName: route.docName, method: 'read' }, ...(route.permission ? { permission: route.permission } : {}) };
  for (const name of route.keys) {
    app.get<{ Params: Record<string, string>; Querystring: Query }>(`/${route.docName}/${KEYS[name].path}/`, { config }, async (request) => {
      const value = request.params[name]!;
      KEYS[name].assert(value);
      const { query } = request;
      const read: ReadRequest = {
        query,
        include: parseInclude(query.include, route.include ?? []),
        formats: route.formats ? parseFormats(query.formats, route.formats) : null,
      };
      const record = await route.read(request.ctx, { [name]: value } as ReadKey<K>, read);
      if (!record) throw errors.notFound(route.notFound);
      const projected =
        route.fieldsIgnoredWithInclude && read.include.length > 0
          ? [record]
          : projectRead([record], { fields: parseFields(query.fields), include: read.include, formats: read.formats }, name);
      return { [route.docName]: projected };
    });
  }
}
