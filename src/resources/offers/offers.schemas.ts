import { uncheckedFields, type Static } from '../../http/schema.js';
import { frameBody } from '../../http/parse-body.js';

/** Ghost checks offers in its domain objects only (`offers.rules.ts`): the body needs its root and nothing else. */
const OFFER = uncheckedFields([
  'name',
  'code',
  'display_title',
  'display_description',
  'type',
  'cadence',
  'amount',
  'duration',
  'duration_in_months',
  'currency',
  'status',
  'tier',
] as const);
export type OfferInput = Static<typeof OFFER>;

export const OFFER_ADD = frameBody('offers', OFFER);
export const OFFER_EDIT = frameBody('offers', OFFER);
