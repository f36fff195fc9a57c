import type { Ctx } from '../../ctx.js';
import type { NewsletterRow } from '../../db/schema.js';
import { countsOfNewsletters, type NewsletterCount } from './newsletters.queries.js';
import { presentAdminNewsletter } from './newsletters.present.js';
import { NEWSLETTER_INCLUDES } from './newsletters.schemas.js';

/** Load and present: Admin newsletters with the member counts `include` asks for. */
export async function presentNewsletters({ db, site }: Ctx, rows: NewsletterRow[], include: readonly string[]) {
  const wanted = NEWSLETTER_INCLUDES.filter((name) => include.includes(name)) as NewsletterCount[];
  const counts = await countsOfNewsletters(
    db,
    rows.map((row) => row.id),
    wanted,
  );
  return rows.map((row) => presentAdminNewsletter(row, site.url, wanted.length ? (counts.get(row.id) ?? {}) : undefined));
}
