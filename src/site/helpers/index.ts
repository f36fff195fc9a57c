import type Handlebars from 'handlebars';
import { asset } from './asset.js';
import { authors, tags } from './authors.js';
import { body_class } from './body-class.js';
import { content } from './content.js';
import { date } from './date.js';
import { excerpt } from './excerpt.js';
import { foreach } from './foreach.js';
import { get } from './get.js';
import { ghost_foot, ghost_head } from './ghost-head.js';
import { has } from './has.js';
import { img_url } from './img-url.js';
import { is } from './is.js';
import { match } from './match.js';
import { meta_description, meta_title, title } from './meta.js';
import { navigation, pagination } from './navigation.js';
import { plural } from './plural.js';
import { post_class } from './post-class.js';
import { next_post, prev_post } from './prev-next.js';
import { reading_time } from './reading-time.js';
import * as small from './small.js';

const { paginatedUrl: _notAHelper, ...smallHelpers } = small;
void _notAHelper;
import { facebook_url, social_url, twitter_url } from './social-url.js';
import { url } from './url.js';

const SYNC: Record<string, (...args: never[]) => unknown> = {
  asset,
  authors,
  body_class,
  content,
  date,
  excerpt,
  foreach,
  ghost_foot,
  ghost_head,
  has,
  img_url,
  is,
  match,
  meta_description,
  meta_title,
  navigation,
  pagination,
  plural,
  post_class,
  reading_time,
  social_url,
  twitter_url,
  facebook_url,
  tags,
  title,
  url,
  ...smallHelpers,
};

/** Every helper on one theme's Handlebars; `get` and the adjacent-post helpers resolve after the page renders (express-hbs async helpers). */
export interface HelperRegistry {
  registerHelper(name: string, fn: Handlebars.HelperDelegate): void;
  registerAsyncHelper(name: string, fn: never): void;
}

export function registerHelpers(hbs: HelperRegistry): void {
  for (const [name, fn] of Object.entries(SYNC)) hbs.registerHelper(name, fn as unknown as Handlebars.HelperDelegate);
  hbs.registerAsyncHelper('get', get as never);
  hbs.registerAsyncHelper('prev_post', prev_post as never);
  hbs.registerAsyncHelper('next_post', next_post as never);
}
