import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import type { Ctx } from '../../ctx.js';
import type { TierRow } from '../../db/schema.js';
import type { Api } from '../../browse/browse.js';
import { parseBrowseParams } from '../../browse/params.js';
import { projectList } from '../../browse/projection.js';
import { assertIdParam } from '../../http/validate.js';
import { writeRoutes } from '../../http/write-routes.js';
import { errors } from '../../errors.js';
import { CONTENT_TIER_RULES } from './tiers.browse.js';
import { benefitsOfTiers, findTier, listTiers } from './tiers.queries.js';
import { presentAdminTier, presentContentTier } from './tiers.present.js';
import { addTier, editTier, type TierWithBenefits } from './tiers.service.js';
import { TIER_ADD, TIER_EDIT, TIER_INCLUDES } from './tiers.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = framesOf('tiers');

async function presentTiers({ db }: Ctx, rows: TierRow[], api: Api) {
  const benefits = await benefitsOfTiers(
    db,
    rows.map((row) => row.id),
  );
  const present = api === 'admin' ? presentAdminTier : presentContentTier;
  return rows.map((row) => present(row, benefits.get(row.id) ?? []));
}

const presentOne = ({ tier, benefits }: TierWithBenefits) => [presentAdminTier(tier, benefits)];

/**
 * Browse, as Ghost does it: every matching tier on one page (`limit`, `page` and `order` are checked and
 * then ignored) with a pagination block that counts them; `fields` applies.
 */
function tiersBrowse(app: FastifyInstance, api: Api) {
  const config = { frame: frame('browse'), ...(api === 'admin' ? { permission: 'product.browse' as const } : {}) };
  app.get<{ Querystring: Query }>('/tiers/', { config }, async (request) => {
    const params = parseBrowseParams(request.query, { include: TIER_INCLUDES });
    const rows = await listTiers(request.ctx.db, request.ctx.engine, params.filter ?? undefined, api === 'content' ? CONTENT_TIER_RULES : {});
    const tiers = projectList(await presentTiers(request.ctx, rows, api), params);
    const n = tiers.length;
    return { tiers, meta: { pagination: { page: 1, pages: 1, limit: n, total: n, prev: null, next: null } } };
  });
}

export function tiersAdminRoutes(app: FastifyInstance) {
  tiersBrowse(app, 'admin');

  app.get<{ Params: Params }>('/tiers/:id/', { config: { frame: frame('read'), permission: 'product.read' } }, async (request) => {
    assertIdParam(request.params.id);
    const row = await findTier(request.ctx.db, request.params.id);
    if (!row) throw errors.notFound('Tier not found.');
    return { tiers: await presentTiers(request.ctx, [row], 'admin') };
  });

  writeRoutes(app, {
    docName: 'tiers',
    add: {
      body: TIER_ADD,
      permission: 'product.add',
      invalidatesSite: true,
      run: (ctx, input) => addTier(ctx, input),
      id: (added) => added.tier.id,
      present: (_ctx, added) => presentOne(added),
    },
    edit: { body: TIER_EDIT, permission: 'product.edit', invalidatesSite: true, run: editTier, present: (_ctx, edited) => presentOne(edited) },
  });
}

export function tiersContentRoutes(app: FastifyInstance) {
  tiersBrowse(app, 'content');
}
