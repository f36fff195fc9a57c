import type { Ctx } from '../../ctx.js';
import type { RecommendationRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { deleteRecommendationRow, findRecommendation, findRecommendationByUrl, insertRecommendation, updateRecommendation } from './recommendations.queries.js';
import type { NewRecommendation, RecommendationInput } from './recommendations.schemas.js';

const notFound = (id: string) => errors.notFound({ message: `Recommendation with id ${id} not found` });

/** Ghost's `Recommendation.validate` and `clean`: title 1–2000, description ≤ 200, empty texts null, long excerpts cut. */
function cleaned<T extends RecommendationInput>(input: T): T {
  const out = { ...input };
  if (out.title !== undefined && out.title.length === 0) throw errors.validation({ message: 'Title must not be empty' });
  if (out.title !== undefined && out.title.length > 2000) throw errors.validation({ message: 'Title must be less than 2000 characters' });
  if (out.description && out.description.length > 200) throw errors.validation({ message: 'Description must be less than 200 characters' });
  if (out.description === '') out.description = null;
  if (out.excerpt === '') out.excerpt = null;
  if (out.excerpt && out.excerpt.length > 2000) out.excerpt = `${out.excerpt.slice(0, 1997)}...`;
  return out;
}

export async function addRecommendation(ctx: Ctx, input: NewRecommendation): Promise<RecommendationRow> {
  const values = cleaned(input);
  return ctx.write(async ({ db, clock }) => {
    if (await findRecommendationByUrl(db, values.url)) throw errors.validation({ message: 'A recommendation with this URL already exists.' });
    const row: RecommendationRow = {
      id: objectId(),
      url: values.url,
      title: values.title,
      excerpt: values.excerpt ?? null,
      featured_image: values.featured_image ?? null,
      favicon: values.favicon ?? null,
      description: values.description ?? null,
      one_click_subscribe: values.one_click_subscribe ?? false,
      created_at: clock.now(),
      updated_at: null,
    };
    await insertRecommendation(db, row);
    return row;
  });
}

/** Changes the fields sent; `updated_at` moves only when something changed. */
export async function editRecommendation(ctx: Ctx, id: string, input: RecommendationInput): Promise<RecommendationRow> {
  const values = cleaned(input);
  return ctx.write(async ({ db, clock }) => {
    const existing = await findRecommendation(db, id);
    if (!existing) throw notFound(id);
    const changed = (Object.keys(values) as (keyof RecommendationInput)[]).filter((key) => values[key] !== undefined && values[key] !== existing[key]);
    if (changed.length === 0) return existing;
    const update = { ...Object.fromEntries(changed.map((key) => [key, values[key]])), updated_at: clock.now() };
    await updateRecommendation(db, id, update);
    return { ...existing, ...update };
  });
}

export async function deleteRecommendation(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async ({ db }) => {
    if (!(await findRecommendation(db, id))) throw notFound(id);
    await deleteRecommendationRow(db, id);
  });
}

/**
 * `POST /recommendations/check/`: the existing recommendation of that site, or a new one's shape with
 * only its url. Ghost also fetches the site to fill in title, excerpt and images; Quire makes no request
 * to a URL a client names.
 */
export async function checkRecommendation(ctx: Ctx, url: string): Promise<{ existing: RecommendationRow | null; url: string }> {
  return { existing: (await findRecommendationByUrl(ctx.db, url)) ?? null, url };
}
