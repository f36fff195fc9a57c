import type { Ctx } from '../../ctx.js';
import type { OfferRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { errors } from '../../errors.js';
import { findTier } from '../tiers/tiers.queries.js';
import { findOffer, insertOffer, offerCodeTaken, offerNameTaken, updateOffer, type OfferWithTier } from './offers.queries.js';
import {
  offerAmount,
  offerCadence,
  offerCode,
  offerCurrency,
  offerDescription,
  offerDuration,
  offerError,
  offerName,
  offerStatus,
  offerTitle,
  offerType,
} from './offers.rules.js';
import type { OfferInput } from './offers.schemas.js';

const nameTaken = () => offerError('InvalidOfferName', "Offer 'name' must be unique. Please change and try again.");
const codeTaken = () => offerError('InvalidOfferCode', "Offer 'code' must be unique. Please change and try again.");

/** Ghost's `Offer.create`, checks in its order; no Stripe coupon is made (Stripe cannot be reached). */
export async function addOffer(ctx: Ctx, input: OfferInput): Promise<OfferWithTier> {
  const name = offerName(input.name);
  const code = offerCode(input.code);
  const portal_title = offerTitle(input.display_title);
  const portal_description = offerDescription(input.display_description);
  const type = offerType(input.type);
  const cadence = offerCadence(input.cadence);
  const { duration, months } = offerDuration(input.duration, input.duration_in_months);
  const status = offerStatus(input.status ?? 'active');
  if (cadence === 'year' && duration === 'repeating') {
    throw offerError('InvalidOfferDuration', 'Offer `duration` must be "once" or "forever" for the "yearly" cadence.');
  }
  if (type === 'trial' && duration !== 'trial') throw offerError('InvalidOfferDuration', 'Offer `duration` must be "trial" for offer type "trial".');
  const amount = offerAmount(input.amount, type);
  const currency = type === 'fixed' ? offerCurrency(input.currency) : null;
  const tierId = (input.tier as { id?: unknown } | null | undefined)?.id;

  return ctx.write(async ({ db, engine, clock }) => {
    if (await offerNameTaken(db, engine, name)) throw nameTaken();
    if (await offerCodeTaken(db, code)) throw codeTaken();
    const tier = typeof tierId === 'string' ? await findTier(db, tierId) : undefined;
    if (!tier) throw errors.validation({ message: 'Offer `tier` must be the `{id}` of an existing tier.', property: 'tier' });
    const at = clock.now();
    const offer: OfferRow = {
      id: objectId(),
      active: status === 'active',
      name,
      code,
      product_id: tier.id,
      stripe_coupon_id: null,
      interval: cadence,
      currency,
      discount_type: type === 'fixed' ? 'amount' : type,
      discount_amount: amount,
      duration,
      duration_in_months: months,
      portal_title,
      portal_description,
      created_at: at,
      updated_at: at,
    };
    await insertOffer(db, offer);
    return { ...offer, tier_name: tier.name };
  });
}

/** Ghost's `updateOffer`: only the name, code, display texts and status change; other fields are ignored. */
export async function editOffer(ctx: Ctx, id: string, input: OfferInput): Promise<OfferWithTier> {
  return ctx.write(async ({ db, engine, clock }) => {
    const offer = await findOffer(db, id);
    if (!offer) throw errors.notFound('Offer not found.');
    const update: Partial<OfferRow> = {};
    if ('name' in input) {
      const name = offerName(input.name);
      if (name !== offer.name && (await offerNameTaken(db, engine, name, id))) throw nameTaken();
      update.name = name;
    }
    if ('code' in input) {
      const code = offerCode(input.code);
      if (code !== offer.code && (await offerCodeTaken(db, code, id))) throw codeTaken();
      update.code = code;
    }
    if ('display_title' in input) update.portal_title = offerTitle(input.display_title);
    if ('display_description' in input) update.portal_description = offerDescription(input.display_description);
    if ('status' in input) update.active = offerStatus(input.status) === 'active';
    update.updated_at = clock.now();
    await updateOffer(db, id, update);
    return { ...offer, ...update };
  });
}
