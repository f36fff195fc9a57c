import { uncheckedFields } from '../../http/schema.js';
import { frameBody } from '../../http/parse-body.js';
import type { Static } from '../../http/schema.js';

/** Columns a client may write (Ghost's model takes any column; `id`, `uuid` and timestamps are the server's). */
export const NEWSLETTER_WRITABLE = [
  'name',
  'description',
  'feedback_enabled',
  'slug',
  'sender_name',
  'sender_email',
  'sender_reply_to',
  'status',
  'visibility',
  'subscribe_on_signup',
  'sort_order',
  'header_image',
  'show_header_icon',
  'show_header_title',
  'show_excerpt',
  'title_font_category',
  'title_alignment',
  'show_feature_image',
  'body_font_category',
  'footer_content',
  'show_badge',
  'show_header_name',
  'show_post_title_section',
  'show_comment_cta',
  'show_subscription_details',
  'show_latest_posts',
  'background_color',
  'post_title_color',
  'button_corners',
  'button_style',
  'title_font_weight',
  'link_style',
  'image_corners',
  'header_background_color',
  'section_title_color',
  'divider_color',
  'button_color',
  'link_color',
] as const;

const NEWSLETTER = uncheckedFields(NEWSLETTER_WRITABLE);
export type NewsletterInput = Static<typeof NEWSLETTER>;

/** Ghost validates newsletters in the model only: the body needs its root, the values are checked by `newsletters.rules.ts`. */
export const NEWSLETTER_ADD = frameBody('newsletters', NEWSLETTER);
export const NEWSLETTER_EDIT = frameBody('newsletters', NEWSLETTER, { matchUrlId: true });

export const NEWSLETTER_INCLUDES = ['count.posts', 'count.members', 'count.active_members'] as const;
