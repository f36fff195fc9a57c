import type { FastifyInstance } from 'fastify';
import type { ReadDb } from '../../db/read-db.js';
import { errors } from '../../errors.js';
import { generateSlug } from '../../content/slugs.js';
import { assertIdParam } from '../../http/validate.js';
import { postSlugTaken } from '../posts/posts.queries.js';
import { slugTaken as tagSlugTaken } from '../tags/tags.queries.js';
import { userSlugTaken } from '../users/users.queries.js';

type Params = { type: string; name: string; id?: string };

/** The records a slug can be generated for, with the uniqueness check each one's table applies. */
const SLUG_TYPES: Record<string, (db: ReadDb, slug: string, exceptId?: string) => Promise<boolean>> = {
  post: postSlugTaken,
  tag: tagSlugTaken,
  user: userSlugTaken,
};

/**
 * `GET /slugs/:type/:name/` (and `/:id/`, which leaves that record's own slug out of the uniqueness check):
 * the slug Ghost would give a new record of that type, by the same rules as a write.
 */
export function slugsRoutes(app: FastifyInstance) {
  const config = { frame: { docName: 'slugs', method: 'generate' }, permission: 'slug.generate' as const };
  const handler = async (params: Params, db: ReadDb) => {
    const taken = Object.hasOwn(SLUG_TYPES, params.type) ? SLUG_TYPES[params.type] : undefined;
    if (!taken) throw errors.validation({ message: 'Validation (AllowedValues) failed for type', context: 'undefined.type' });
    if (params.id !== undefined) assertIdParam(params.id);
    const slug = await generateSlug(params.name, { kind: params.type, taken: (candidate) => taken(db, candidate, params.id) });
    return { slugs: [{ slug }] };
  };
  app.get<{ Params: Params }>('/slugs/:type/:name/', { config }, (request) => handler(request.params, request.ctx.db));
  app.get<{ Params: Params }>('/slugs/:type/:name/:id/', { config }, (request) => handler(request.params, request.ctx.db));
}
