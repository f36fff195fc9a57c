import { objectId, uuid } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { DUPLICATE, type FileRow, type ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

/**
 * Tiers (Ghost's `products`), as Ghost's ProductsImporter: one with the name and slug of an existing tier is
 * not imported and its posts and members get the existing one; the site's single free tier stands for the
 * file's. A paid tier whose slug is a fresh tier's here (the default tier every site starts with, which no
 * member, post or offer uses yet) replaces that tier's name, prices and settings, as the file's would stand
 * alone on a fresh Ghost site, instead of arriving beside it as `default-product-2`. Prices missing on the row
 * come from the file's `stripe_prices`; Stripe ids are not kept (no Stripe connection here).
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
    const unused = tier.type !== 'free' ? existing.find((e) => e.slug === tier.slug && e.type === tier.type) : undefined;
    if (unused && (await tierUnused(run, unused.id))) {
      run.map('products', tier.id, unused.id);
      run.wrote('products', unused.id);
      const { id: _id, slug: _slug, created_at: _created, ...values } = tierValues(run, tier, prices, unused.id, unused.slug);
      await db
        .updateTable('products')
        .set(values as never)
        .where('id', '=', unused.id)
        .execute();
      run.counts.products = (run.counts.products ?? 0) + 1;
      continue;
    }
    const id = objectId();
    run.map('products', tier.id, id);
    run.wrote('products', id);
    // Another tier may hold the slug under another name (every site's first paid tier is `default-product`).
    const slug = await generateSlug(typeof tier.slug === 'string' && tier.slug ? tier.slug : String(tier.name ?? ''), {
      kind: 'product',
      taken: async (candidate) => slugs.has(candidate),
    });
    slugs.add(slug);
    fresh.push(tierValues(run, tier, prices, id, slug));
  }
  await run.insert('products', fresh);
}

function tierValues(run: ImportRun, tier: FileRow, prices: Map<string, FileRow>, id: string, slug: string): Record<string, unknown> {
  const monthly = prices.get(String(tier.monthly_price_id));
  const yearly = prices.get(String(tier.yearly_price_id));
  return run.values(tier, columnsOf('products'), 'Product', {
    id,
    slug,
    monthly_price: tier.monthly_price ?? monthly?.amount ?? null,
    yearly_price: tier.yearly_price ?? yearly?.amount ?? null,
    currency: tier.currency ?? monthly?.currency ?? yearly?.currency ?? null,
    monthly_price_id: null,
    yearly_price_id: null,
    created_at: run.dateOr(tier.created_at),
  });
}

/** A tier nothing uses yet: no member holds it, no post or offer names it, no benefit is listed on it. */
async function tierUnused(run: ImportRun, id: string): Promise<boolean> {
  const { db } = run.w;
  const used = await Promise.all([
    db.selectFrom('members_products').select('id').where('product_id', '=', id).limit(1).executeTakeFirst(),
    db.selectFrom('posts_products').select('id').where('product_id', '=', id).limit(1).executeTakeFirst(),
    db.selectFrom('offers').select('id').where('product_id', '=', id).limit(1).executeTakeFirst(),
    db.selectFrom('products_benefits').select('id').where('product_id', '=', id).limit(1).executeTakeFirst(),
  ]);
  return used.every((row) => row === undefined);
}

/** A newsletter nothing uses yet: no subscriber, no post sent or to be sent with it. */
async function newsletterUnused(run: ImportRun, id: string): Promise<boolean> {
  const { db } = run.w;
  const used = await Promise.all([
    db.selectFrom('members_newsletters').select('id').where('newsletter_id', '=', id).limit(1).executeTakeFirst(),
    db.selectFrom('posts').select('id').where('newsletter_id', '=', id).limit(1).executeTakeFirst(),
    db.selectFrom('emails').select('id').where('newsletter_id', '=', id).limit(1).executeTakeFirst(),
  ]);
  return used.every((row) => row === undefined);
}

/**
 * Newsletters, as Ghost's NewslettersImporter (which drops `sender_email`: an address must be verified by
 * the site that sends from it). One whose slug exists here is matched with the existing newsletter, so its
 * posts and subscribers land there; when that newsletter is unused (the default newsletter of a fresh site),
 * it takes the file's name and settings, as the file's would stand alone on a fresh Ghost site.
 */
export async function importNewsletters(run: ImportRun): Promise<void> {
  const { db } = run.w;
  const newsletters = run.rows('newsletters');
  if (newsletters.length === 0) return;
  const bySlug = new Map((await db.selectFrom('newsletters').select(['id', 'slug']).execute()).map((n) => [n.slug, n.id]));
  const fresh: Record<string, unknown>[] = [];
  for (const newsletter of newsletters) {
    const known = bySlug.get(String(newsletter.slug));
    if (known && (await newsletterUnused(run, known))) {
      run.map('newsletters', newsletter.id, known);
      const values = run.values(newsletter, columnsOf('newsletters'), 'Newsletter', { sender_email: null });
      for (const column of ['id', 'uuid', 'slug', 'created_at']) delete values[column];
      // Another newsletter here may hold the file's name (names are unique): then this one keeps its own.
      if (await db.selectFrom('newsletters').select('id').where('name', '=', String(newsletter.name)).where('id', '!=', known).executeTakeFirst()) {
        delete values.name;
      }
      await db
        .updateTable('newsletters')
        .set(values as never)
        .where('id', '=', known)
        .execute();
      run.counts.newsletters = (run.counts.newsletters ?? 0) + 1;
      continue;
    }
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
