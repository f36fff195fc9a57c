import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { assertIdParam } from '../../http/validate.js';
import { writeRoutes } from '../../http/write-routes.js';
import { errors } from '../../errors.js';
import { findOffer, listOffers } from './offers.queries.js';
import { presentAdminOffer, presentContentOffer } from './offers.present.js';
import { addOffer, editOffer } from './offers.service.js';
import { OFFER_ADD, OFFER_EDIT } from './offers.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = framesOf('offers');

/** Offers: browse is one unpaginated list without `meta`; add answers 200 (not 201) with Location, as Ghost does. */
export function offersAdminRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/offers/', { config: { frame: frame('browse'), permission: 'offer.browse' } }, async (request) => {
    const filter = typeof request.query.filter === 'string' && request.query.filter ? request.query.filter : undefined;
    const rows = await listOffers(request.ctx.db, request.ctx.engine, filter);
    return { offers: rows.map(presentAdminOffer) };
  });

  app.get<{ Params: Params }>('/offers/:id/', { config: { frame: frame('read'), permission: 'offer.read' } }, async (request) => {
    assertIdParam(request.params.id);
    const row = await findOffer(request.ctx.db, request.params.id);
    if (!row) throw errors.notFound('Offer not found.');
    return { offers: [presentAdminOffer(row)] };
  });

  writeRoutes(app, {
    docName: 'offers',
    add: {
      permission: 'offer.add',
      invalidatesSite: true,
      body: OFFER_ADD,
      // Ghost answers an offer's add with 200 (and a Location), not 201.
      status: 200,
      run: (ctx, input) => addOffer(ctx, input),
      present: (_ctx, offer) => [presentAdminOffer(offer)],
    },
    edit: {
      permission: 'offer.edit',
      invalidatesSite: true,
      body: OFFER_EDIT,
      run: (ctx, id, input) => editOffer(ctx, id, input),
      present: (_ctx, offer) => [presentAdminOffer(offer)],
    },
  });
}

/** Content API: one offer by id, archived ones included (Portal shows why an old link no longer works). */
export function offersContentRoutes(app: FastifyInstance) {
  app.get<{ Params: Params }>('/offers/:id/', { config: { frame: frame('read') } }, async (request) => {
    assertIdParam(request.params.id);
    const row = await findOffer(request.ctx.db, request.params.id);
    if (!row) throw errors.notFound('Offer not found.');
    return { offers: [presentContentOffer(row)] };
  });
}
