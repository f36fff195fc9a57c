import { objectId } from '../../db/ids.js';
import { slugify } from '../../content/slugs.js';
import { DUPLICATE, type ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';
import { benefitSlugs, offerCodesAndNames, snippetNames } from './db.import.queries.js';

/**
 * Tier benefits, offers and snippets: beyond Ghost, whose importer passes them over. A benefit whose slug
 * exists here is shared; a tier's benefits are linked when the tier was written from the file (imported, or
 * the site's fresh default tier it replaced), so a tier that was here before keeps its own list. An offer or
 * snippet whose code or name exists here is not imported (Ghost's duplicate problem); an offer keeps its
 * Ghost 6 `redemption_type` and loses its Stripe coupon (no Stripe connection here).
 */
export async function importBenefits(run: ImportRun): Promise<void> {
  const benefits = run.rows('benefits');
  if (benefits.length === 0) return;
  const bySlug = new Map((await benefitSlugs(run.w.db)).map((b) => [b.slug, b.id]));
  const fresh: Record<string, unknown>[] = [];
  for (const benefit of benefits) {
    const slug = typeof benefit.slug === 'string' && benefit.slug ? benefit.slug : slugify(String(benefit.name ?? ''));
    const known = bySlug.get(slug);
    if (known) {
      run.map('benefits', benefit.id, known);
      continue;
    }
    const id = objectId();
    run.map('benefits', benefit.id, id);
    bySlug.set(slug, id);
    fresh.push(run.values(benefit, columnsOf('benefits'), 'Benefit', { id, slug, created_at: run.dateOr(benefit.created_at) }));
  }
  await run.insert('benefits', fresh);

  const links: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const sorted = [...run.rows('products_benefits')].sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
  for (const link of sorted) {
    const product = run.idOf('products', link.product_id);
    const benefit = run.idOf('benefits', link.benefit_id);
    if (!product || !benefit || !run.isWritten('products', product) || seen.has(`${product}:${benefit}`)) continue;
    seen.add(`${product}:${benefit}`);
    links.push({ id: objectId(), product_id: product, benefit_id: benefit, sort_order: Number(link.sort_order ?? 0) });
  }
  await run.insert('products_benefits', links);
}

export async function importOffers(run: ImportRun): Promise<void> {
  const offers = run.rows('offers');
  if (offers.length === 0) return;
  const existing = await offerCodesAndNames(run.w.db);
  const codes = new Set(existing.map((offer) => offer.code));
  const names = new Set(existing.map((offer) => offer.name));
  const fresh: Record<string, unknown>[] = [];
  for (const offer of offers) {
    const product = run.idOf('products', offer.product_id);
    if (codes.has(String(offer.code)) || names.has(String(offer.name))) {
      run.problem(DUPLICATE, 'Offer', offer);
      continue;
    }
    if (!product) {
      run.problem('Entry was not imported and ignored. Its tier is neither in the file nor on this site.', 'Offer', offer);
      continue;
    }
    codes.add(String(offer.code));
    names.add(String(offer.name));
    const id = objectId();
    run.map('offers', offer.id, id);
    fresh.push(
      run.values(offer, columnsOf('offers'), 'Offer', {
        id,
        product_id: product,
        stripe_coupon_id: null,
        redemption_type: typeof offer.redemption_type === 'string' && offer.redemption_type ? offer.redemption_type : 'signup',
        created_at: run.dateOr(offer.created_at),
      }),
    );
  }
  await run.insert('offers', fresh);
}

export async function importSnippets(run: ImportRun): Promise<void> {
  const snippets = run.rows('snippets');
  if (snippets.length === 0) return;
  const names = new Set((await snippetNames(run.w.db)).map((snippet) => snippet.name));
  const fresh: Record<string, unknown>[] = [];
  for (const snippet of snippets) {
    if (names.has(String(snippet.name))) {
      run.problem(DUPLICATE, 'Snippet', snippet);
      continue;
    }
    names.add(String(snippet.name));
    fresh.push(
      run.values(snippet, columnsOf('snippets'), 'Snippet', {
        id: objectId(),
        // The column is required; a lexical-only snippet of a newer Ghost has an empty mobiledoc there too.
        mobiledoc: typeof snippet.mobiledoc === 'string' ? snippet.mobiledoc : '',
        created_at: run.dateOr(snippet.created_at),
        created_by: run.userOf(snippet.created_by),
        updated_by: snippet.updated_by ? run.userOf(snippet.updated_by) : null,
      }),
    );
  }
  await run.insert('snippets', fresh);
}
