import type { NewsletterRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { fromStorageUrl } from '../../content/ghost-url.js';

/** The Admin API newsletter: every column, in Ghost's order, then the included counts. */
export function presentAdminNewsletter(n: NewsletterRow, siteUrl: string, count?: Record<string, number>) {
  return {
    id: n.id,
    uuid: n.uuid,
    name: n.name,
    description: n.description,
    feedback_enabled: n.feedback_enabled,
    slug: n.slug,
    sender_name: n.sender_name,
    sender_email: n.sender_email,
    sender_reply_to: n.sender_reply_to,
    status: n.status,
    visibility: n.visibility,
    subscribe_on_signup: n.subscribe_on_signup,
    sort_order: n.sort_order,
    header_image: n.header_image ? fromStorageUrl(n.header_image, siteUrl) : n.header_image,
    show_header_icon: n.show_header_icon,
    show_header_title: n.show_header_title,
    show_excerpt: n.show_excerpt,
    title_font_category: n.title_font_category,
    title_alignment: n.title_alignment,
    show_feature_image: n.show_feature_image,
    body_font_category: n.body_font_category,
    footer_content: n.footer_content,
    show_badge: n.show_badge,
    show_header_name: n.show_header_name,
    show_post_title_section: n.show_post_title_section,
    show_comment_cta: n.show_comment_cta,
    show_subscription_details: n.show_subscription_details,
    show_latest_posts: n.show_latest_posts,
    background_color: n.background_color,
    post_title_color: n.post_title_color,
    created_at: isoDate(n.created_at),
    updated_at: isoDate(n.updated_at),
    button_corners: n.button_corners,
    button_style: n.button_style,
    title_font_weight: n.title_font_weight,
    link_style: n.link_style,
    image_corners: n.image_corners,
    header_background_color: n.header_background_color,
    section_title_color: n.section_title_color,
    divider_color: n.divider_color,
    button_color: n.button_color,
    link_color: n.link_color,
    ...(count ? { count } : {}),
  };
}

/** The Content API newsletter: the public fields only. */
export function presentContentNewsletter(n: NewsletterRow) {
  return {
    id: n.id,
    uuid: n.uuid,
    name: n.name,
    description: n.description,
    slug: n.slug,
    sender_email: n.sender_email,
    subscribe_on_signup: n.subscribe_on_signup,
    visibility: n.visibility,
    sort_order: n.sort_order,
    created_at: isoDate(n.created_at),
    updated_at: isoDate(n.updated_at),
  };
}
