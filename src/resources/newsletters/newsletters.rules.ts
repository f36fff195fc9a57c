import { isEmail } from '../../db/string-checks.js';
import { columnRules } from '../../db/column-rules.js';
import { errors } from '../../errors.js';

const FONT = ['serif', 'sans_serif'] as const;

/** The newsletter model's column checks, in Ghost's schema order (`sort_order` is checked on its own). */
export const NEWSLETTER_RULES = columnRules({
  table: 'newsletters',
  columns: {
    name: { type: 'text', maxLength: 191, nullable: false },
    description: { type: 'text', maxLength: 2000 },
    feedback_enabled: { type: 'boolean' },
    slug: { type: 'text', maxLength: 191 },
    sender_name: { type: 'text', maxLength: 191 },
    sender_email: { type: 'text', maxLength: 191 },
    sender_reply_to: { type: 'text', maxLength: 191, nullable: false },
    status: { type: 'enum', values: ['active', 'archived'] },
    visibility: { type: 'text', maxLength: 50, nullable: false },
    subscribe_on_signup: { type: 'boolean' },
    header_image: { type: 'text', maxLength: 2000 },
    show_header_icon: { type: 'boolean' },
    show_header_title: { type: 'boolean' },
    show_excerpt: { type: 'boolean' },
    title_font_category: { type: 'enum', values: FONT },
    title_alignment: { type: 'enum', values: ['center', 'left'] },
    show_feature_image: { type: 'boolean' },
    body_font_category: { type: 'enum', values: FONT },
    footer_content: { type: 'text', maxLength: 1_000_000_000 },
    show_badge: { type: 'boolean' },
    show_header_name: { type: 'boolean' },
    show_post_title_section: { type: 'boolean' },
    show_comment_cta: { type: 'boolean' },
    show_subscription_details: { type: 'boolean' },
    show_latest_posts: { type: 'boolean' },
    background_color: { type: 'text', maxLength: 50, nullable: false },
    post_title_color: { type: 'text', maxLength: 50 },
    button_corners: { type: 'enum', values: ['square', 'rounded', 'pill'] },
    button_style: { type: 'enum', values: ['fill', 'outline'] },
    title_font_weight: { type: 'enum', values: ['normal', 'medium', 'semibold', 'bold'] },
    link_style: { type: 'enum', values: ['underline', 'regular', 'bold'] },
    image_corners: { type: 'enum', values: ['square', 'rounded'] },
    header_background_color: { type: 'text', maxLength: 50, nullable: false },
    section_title_color: { type: 'text', maxLength: 50 },
    divider_color: { type: 'text', maxLength: 50 },
    button_color: { type: 'text', maxLength: 50 },
    link_color: { type: 'text', maxLength: 50 },
  },
});

export function newsletterSortOrder(value: unknown): number {
  if (typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  throw errors.validation({ message: 'Value in [newsletters.sort_order] is not an integer.', context: 'newsletters.sort_order' });
}

/**
 * Sender addresses, as Ghost checks them for a self-hosted site: any valid address may be the sender or
 * the reply-to, without verification; `sender_reply_to` may also be `newsletter` or `support`.
 */
export function checkSenderAddresses(values: { sender_email?: string | null; sender_reply_to?: string }): void {
  const email = values.sender_email;
  if (email && !isEmail(email)) throw errors.validation(`You cannot set the sender email address to ${email}`);
  const replyTo = values.sender_reply_to;
  if (replyTo !== undefined && replyTo !== 'newsletter' && replyTo !== 'support' && !isEmail(replyTo)) {
    throw errors.validation(`You cannot set the reply-to email address to ${replyTo}`);
  }
}
