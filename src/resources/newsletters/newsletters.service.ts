import type { Ctx, WriteCtx } from '../../ctx.js';
import type { NewsletterRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { toStorageUrl } from '../../content/ghost-url.js';
import { checkColumns } from '../../db/column-rules.js';
import {
  findNewsletter,
  findNewsletterNamed,
  insertNewsletter,
  newsletterSlugTaken,
  nextSortOrder,
  optInExistingMembers,
  renameNewsletterBySlug,
  updateNewsletter,
} from './newsletters.queries.js';
import { checkSenderAddresses, NEWSLETTER_RULES, newsletterSortOrder } from './newsletters.rules.js';
import { NEWSLETTER_WRITABLE, type NewsletterInput } from './newsletters.schemas.js';

type NewsletterValues = Partial<Omit<NewsletterRow, 'id' | 'uuid' | 'created_at' | 'updated_at'>>;

export interface NewsletterResult {
  newsletter: NewsletterRow;
  meta?: { opted_in_member_count: number };
}

/** Ghost's model defaults for a new newsletter. */
const DEFAULTS: Omit<NewsletterRow, 'id' | 'uuid' | 'name' | 'slug' | 'created_at' | 'updated_at'> = {
  description: null,
  feedback_enabled: false,
  sender_name: null,
  sender_email: null,
  sender_reply_to: 'newsletter',
  status: 'active',
  visibility: 'members',
  subscribe_on_signup: true,
  sort_order: 0,
  header_image: null,
  show_header_icon: true,
  show_header_title: true,
  show_excerpt: false,
  title_font_category: 'sans_serif',
  title_alignment: 'center',
  show_feature_image: true,
  body_font_category: 'sans_serif',
  footer_content: null,
  show_badge: true,
  show_header_name: true,
  show_post_title_section: true,
  show_comment_cta: true,
  show_subscription_details: false,
  show_latest_posts: false,
  background_color: 'light',
  post_title_color: null,
  button_corners: 'rounded',
  button_style: 'fill',
  title_font_weight: 'bold',
  link_style: 'underline',
  image_corners: 'square',
  header_background_color: 'transparent',
  section_title_color: null,
  divider_color: null,
  button_color: 'accent',
  link_color: 'accent',
};

/** The body's writable fields, checked as the model checks them and in the form it stores them. */
function valuesOf(input: NewsletterInput, siteUrl: string, adding: boolean): NewsletterValues {
  const picked: Record<string, unknown> = {};
  for (const key of NEWSLETTER_WRITABLE) if (key in input && input[key] !== undefined) picked[key] = input[key];
  if (typeof picked.name === 'string') picked.name = picked.name.trim();
  if (adding && !('name' in picked)) picked.name = null;
  const { sort_order: sortOrder, ...columns } = picked;
  const values: NewsletterValues = checkColumns(NEWSLETTER_RULES, columns) as NewsletterValues;
  // A new newsletter's place is the server's to choose; only an edit moves it.
  if (sortOrder !== undefined && !adding) values.sort_order = newsletterSortOrder(sortOrder);
  checkSenderAddresses(values);
  if (values.header_image) values.header_image = toStorageUrl(values.header_image, siteUrl);
  return values;
}

const nameTaken = () => errors.validation({ message: 'A newsletter with the same name already exists', property: 'name' });

/**
 * A new newsletter, placed after the active ones. With `optInExisting`, every member subscribed to an
 * active newsletter is subscribed to it too, and the answer says how many.
 */
export async function addNewsletter(ctx: Ctx, input: NewsletterInput, { optInExisting }: { optInExisting: boolean }): Promise<NewsletterResult> {
  const values = valuesOf(input, ctx.site.url, true);
  return ctx.write(async ({ db, engine, clock }) => {
    const name = values.name!;
    if (await findNewsletterNamed(db, engine, name)) throw nameTaken();
    const at = clock.now();
    const newsletter: NewsletterRow = {
      id: objectId(),
      uuid: uuid(),
      ...DEFAULTS,
      ...values,
      name,
      slug: await generateSlug(values.slug || name, { kind: 'newsletter', taken: (candidate) => newsletterSlugTaken(db, candidate) }),
      sort_order: await nextSortOrder(db),
      created_at: at,
      updated_at: at,
    };
    await insertNewsletter(db, newsletter);
    if (!optInExisting) return { newsletter };
    return { newsletter, meta: { opted_in_member_count: await optInExistingMembers(db, newsletter.id, objectId) } };
  });
}

export async function editNewsletter(ctx: Ctx, id: string, input: NewsletterInput): Promise<NewsletterResult> {
  const values = valuesOf(input, ctx.site.url, false);
  return ctx.write(async ({ db, engine, clock }) => {
    const existing = await findNewsletter(db, id);
    if (!existing) throw errors.notFound();
    if (values.name !== undefined && values.name !== existing.name && (await findNewsletterNamed(db, engine, values.name, id))) throw nameTaken();
    const next: NewsletterRow = { ...existing, ...values };
    if ((values.slug && values.slug !== existing.slug) || !next.slug) {
      next.slug = await generateSlug(values.slug || next.name, { kind: 'newsletter', taken: (candidate) => newsletterSlugTaken(db, candidate, id) });
    }
    next.updated_at = clock.now();
    const { id: _id, uuid: _uuid, created_at: _created, ...update } = next;
    await updateNewsletter(db, id, update);
    return { newsletter: next };
  });
}

/** Setup names the default newsletter after the site, as Ghost's setup does. */
export async function renameDefaultNewsletter(w: WriteCtx, title: string): Promise<void> {
  await renameNewsletterBySlug(w.db, 'default-newsletter', title.trim(), w.clock.now());
}
