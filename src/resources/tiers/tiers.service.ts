import type { Ctx, WriteCtx } from '../../ctx.js';
import type { TierRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { benefitsNamed, benefitsOfTiers, findTier, insertBenefit, insertTier, linkBenefit, slugTaken, unlinkBenefits, updateTier } from './tiers.queries.js';
import { tierBenefits, tierCurrency, tierDescription, tierName, tierPrice, tierTrialDays, tierWelcomePageUrl } from './tiers.rules.js';
import type { TierInput } from './tiers.schemas.js';

export interface TierWithBenefits {
  tier: TierRow;
  benefits: string[];
}

/** Links a tier to these benefits in order, reusing benefits of the same name (any case) and making the others. */
async function saveBenefits(w: WriteCtx, tierId: string, names: string[]): Promise<void> {
  const { db, engine, clock } = w;
  await unlinkBenefits(db, tierId);
  const existing = await benefitsNamed(db, engine, names);
  let sortOrder = 0;
  for (const name of names) {
    let benefitId = existing.get(name.toLowerCase());
    if (!benefitId) {
      benefitId = objectId();
      const slug = await generateSlug(name, { kind: 'benefit', taken: (candidate) => slugTaken(db, 'benefits', candidate) });
      await insertBenefit(db, { id: benefitId, name, slug, created_at: clock.now(), updated_at: clock.now() });
    }
    await linkBenefit(db, { id: objectId(), product_id: tierId, benefit_id: benefitId, sort_order: sortOrder++ });
  }
}

/** A new paid tier (Ghost's `TiersAPI.add`): always active; the currency is required, prices default to 500/5000. */
export async function addTier(ctx: Ctx, input: TierInput & { name: string }): Promise<TierWithBenefits> {
  const name = tierName(input.name);
  const description = tierDescription(input.description);
  const benefits = tierBenefits(input.benefits);
  const welcome_page_url = tierWelcomePageUrl(input.welcome_page_url);
  const visibility = input.visibility ?? 'public';
  const currency = tierCurrency(input.currency);
  const trial_days = tierTrialDays(input.trial_days, 'paid');
  const monthly_price = tierPrice(input.monthly_price, 500);
  const yearly_price = tierPrice(input.yearly_price, 5000);
  return ctx.write(async (w) => {
    const at = w.clock.now();
    const tier: TierRow = {
      id: objectId(),
      name,
      slug: await generateSlug(input.slug || name, { kind: 'product', taken: (candidate) => slugTaken(w.db, 'products', candidate) }),
      active: true,
      welcome_page_url,
      visibility,
      trial_days,
      description,
      type: 'paid',
      currency,
      monthly_price,
      yearly_price,
      created_at: at,
      updated_at: at,
      monthly_price_id: null,
      yearly_price_id: null,
    };
    await insertTier(w.db, tier);
    await saveBenefits(w, tier.id, benefits);
    return { tier, benefits };
  });
}

/**
 * Edits a tier (Ghost's `TiersAPI.edit`): name, benefits, description, visibility, `active`, trial days
 * and welcome page; prices and currency only on paid tiers, where a missing or zero value keeps the old one.
 */
export async function editTier(ctx: Ctx, id: string, input: TierInput): Promise<TierWithBenefits> {
  return ctx.write(async (w) => {
    const tier = await findTier(w.db, id);
    if (!tier) throw errors.notFound('Tier not found.');
    const next: TierRow = { ...tier };
    let benefits = (await benefitsOfTiers(w.db, [id])).get(id)!;
    const newBenefits = 'benefits' in input ? tierBenefits(input.benefits) : null;
    if ('name' in input) next.name = tierName(input.name);
    if (newBenefits) benefits = newBenefits;
    if ('description' in input) next.description = tierDescription(input.description);
    if (input.visibility !== undefined) next.visibility = input.visibility;
    if (input.active !== undefined) next.active = input.active;
    if ('trial_days' in input) next.trial_days = tierTrialDays(input.trial_days, tier.type);
    if ('welcome_page_url' in input) next.welcome_page_url = tierWelcomePageUrl(input.welcome_page_url);
    const currency = input.currency || tier.currency;
    const monthly = input.monthly_price || tier.monthly_price;
    const yearly = input.yearly_price || tier.yearly_price;
    if (tier.type === 'free') {
      if (currency || monthly || yearly) throw errors.validation('Cannot set pricing for free tiers');
    } else {
      next.currency = tierCurrency(currency);
      next.monthly_price = tierPrice(monthly, 500);
      next.yearly_price = tierPrice(yearly, 5000);
    }
    next.updated_at = w.clock.now();
    const { id: _id, created_at: _created, ...update } = next;
    await updateTier(w.db, { id }, update);
    if (newBenefits) await saveBenefits(w, id, newBenefits);
    return { tier: next, benefits };
  });
}

/** Setup names the default paid tier after the site, as Ghost's setup does. */
export async function renameDefaultTier(w: WriteCtx, title: string): Promise<void> {
  await updateTier(w.db, { slug: 'default-product' }, { name: title.trim(), updated_at: w.clock.now() });
}
