import type Handlebars from 'handlebars';
import { asset } from './asset.js';
import { authors, tags } from './authors.js';
import { body_class } from './body-class.js';
import { cancel_link } from './cancel-link.js';
import { collection } from './collection.js';
import { comment_count } from './comment-count.js';
import { comments } from './comments.js';
import { concat } from './concat.js';
import { content } from './content.js';
import { content_api_key, content_api_url } from './content-api.js';
import { date } from './date.js';
import { encode } from './encode.js';
import { excerpt } from './excerpt.js';
import { foreach } from './foreach.js';
import { get } from './get.js';
import { ghost_foot, ghost_head } from './ghost-head.js';
import { has } from './has.js';
import { img_url } from './img-url.js';
import { input_password } from './input-password.js';
import { is } from './is.js';
import { link, link_class } from './link.js';
import { match } from './match.js';
import { meta_description, meta_title, title } from './meta.js';
import { navigation, pagination } from './navigation.js';
import { page_url } from './page-url.js';
import { plural } from './plural.js';
import { post_class } from './post-class.js';
import { next_post, prev_post } from './prev-next.js';
import { price } from './price.js';
import { raw } from './raw.js';
import { readable_url } from './readable-url.js';
import { reading_time } from './reading-time.js';
import { recommendations } from './recommendations.js';
import { search } from './search.js';
import { facebook_url, social_url, twitter_url } from './social-url.js';
import { t } from './t.js';
import { tiers } from './tiers.js';
import { total_members, total_paid_members } from './total-members.js';
import { url } from './url.js';

/** Helpers that answer as the template runs. `contentFor` and `block` are express-hbs's own. */
const SYNC: Record<string, (...args: never[]) => unknown> = {
  asset,
  authors,
  body_class,
  cancel_link,
  comment_count,
  comments,
  concat,
  content,
  content_api_key,
  content_api_url,
  date,
  encode,
  excerpt,
  facebook_url,
  foreach,
  ghost_foot,
  ghost_head,
  has,
  img_url,
  input_password,
  is,
  link,
  link_class,
  match,
  meta_description,
  meta_title,
  navigation,
  page_url,
  pagination,
  plural,
  post_class,
  price,
  raw,
  readable_url,
  reading_time,
  recommendations,
  search,
  social_url,
  t,
  tags,
  tiers,
  title,
  twitter_url,
  url,
};

/** Helpers that read the database: express-hbs puts a placeholder in the page and fills it in when they answer. */
const ASYNC: Record<string, (...args: never[]) => void> = { get, prev_post, next_post, collection, total_members, total_paid_members };

export interface HelperRegistry {
  registerHelper(name: string, fn: Handlebars.HelperDelegate): void;
  registerAsyncHelper(name: string, fn: never): void;
}

export function registerHelpers(hbs: HelperRegistry): void {
  for (const [name, fn] of Object.entries(SYNC)) hbs.registerHelper(name, fn as unknown as Handlebars.HelperDelegate);
  for (const [name, fn] of Object.entries(ASYNC)) hbs.registerAsyncHelper(name, fn as never);
}
