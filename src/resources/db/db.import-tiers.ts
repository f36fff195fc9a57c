import { objectId, uuid } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { DUPLICATE, type ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

/**
 * Tiers (Ghost's `products`), as Ghost's ProductsImporter: one with the name and slug of an existing tier is
 * not imported and its posts and members get the existing one; the site's single free tier stands for the
 * file's. Prices missing on the row come from the file's `stripe_prices`; Stripe ids are not kept (no Stripe
 * connection here).
 */
export async function importTiers(run: ImportRun): Promise<void> {
  const { db } = run.w;
  const tiers = run.rows('products');
  if (tiers.length === 0) return;
  const existing = await db.selectFrom('products').select(['id', 'name', 'slug', 'type']).execute();
  const free = existing.find((tier) => tier.type === 'free');
  const slugs = new Set(existing.map((tier) => tier.slug));
  const prices = new Map(run.rows('stripe_prices').map((price) => [String(price.id), price]));
  const fresh: Record<string, unknown>[] = [];
  for (const tier of tiers) {
    const known = existing.find((e) => e.name === tier.name && e.slug === tier.slug) ?? (tier.type === 'free' ? free : undefined);
    if (known) {
      run.map('products', tier.id, known.id);
      run.problem(DUPLICATE, 'Product', { product: tier });
      continue;
    }
    const id = objectId();
    run.map('products', tier.id, id);
    // Another tier may hold the slug under another name (every site's first paid tier is `default-product`).
    const slug = await generateSlug(typeof tier.slug === 'string' && tier.slug ? tier.slug : String(tier.name ?? ''), {
      kind: 'product',
      taken: async (candidate) => slugs.has(candidate),
    });
    slugs.add(slug);
    const monthly = prices.get(String(tier.monthly_price_id));
    const yearly = prices.get(String(tier.yearly_price_id));
    fresh.push(
      run.values(tier, columnsOf('products'), 'Product', {
        id,
        slug,
        monthly_price: tier.monthly_price ?? monthly?.amount ?? null,
        yearly_price: tier.yearly_price ?? yearly?.amount ?? null,
        currency: tier.currency ?? monthly?.currency ?? yearly?.currency ?? null,
        monthly_price_id: null,
        yearly_price_id: null,
        created_at: run.dateOr(tier.created_at),
      }),
    );
  }
  await run.insert('products', fresh);
}

/**
 * Newsletters, as Ghost's NewslettersImporter (which drops `sender_email`: an address must be verified by
 * the site that sends from it). One whose slug exists here is matched with the existing newsletter, so its
 * posts and subscribers land there.
 */
export async function importNewsletters(run: ImportRun): Promise<void> {
  const { db } = run.w;
  const newsletters = run.rows('newsletters');
  if (newsletters.length === 0) return;
  const bySlug = new Map((await db.selectFrom('newsletters').select(['id', 'slug']).execute()).map((n) => [n.slug, n.id]));
  const fresh: Record<string, unknown>[] = [];
  for (const newsletter of newsletters) {
    const known = bySlug.get(String(newsletter.slug));
    if (known) {
      run.map('newsletters', newsletter.id, known);
      run.problem(DUPLICATE, 'Newsletter', newsletter);
      continue;
    }
    const id = objectId();
    run.map('newsletters', newsletter.id, id);
    fresh.push(
      run.values(newsletter, columnsOf('newsletters'), 'Newsletter', {
        id,
        uuid: uuid(),
        sender_email: null,
        created_at: run.dateOr(newsletter.created_at),
      }),
    );
  }
  await run.insert('newsletters', fresh);
}
