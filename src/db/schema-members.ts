/** Row types of the members migration (0008). Tiers live in Ghost's `products` table. */
export interface MemberTables {
  labels: LabelRow;
  products: TierRow;
  benefits: BenefitRow;
  products_benefits: TierBenefitRow;
  newsletters: NewsletterRow;
  offers: OfferRow;
  members: MemberRow;
  members_labels: MemberLabelRow;
  members_products: MemberTierRow;
  members_newsletters: MemberNewsletterRow;
}

export interface LabelRow {
  id: string;
  name: string;
  slug: string;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export interface TierRow {
  id: string;
  name: string;
  slug: string;
  active: boolean;
  welcome_page_url: string | null;
  visibility: 'public' | 'none';
  trial_days: number;
  description: string | null;
  type: 'free' | 'paid';
  /** Stored as given (Ghost's fixtures store `usd`); the tiers endpoints show it upper-case. */
  currency: string | null;
  /** Minor units (cents). */
  monthly_price: number | null;
  yearly_price: number | null;
  created_at: Date;
  updated_at: Date | null;
  monthly_price_id: string | null;
  yearly_price_id: string | null;
}

export interface BenefitRow {
  id: string;
  name: string;
  slug: string;
  created_at: Date;
  updated_at: Date | null;
}

export interface TierBenefitRow {
  id: string;
  product_id: string;
  benefit_id: string;
  sort_order: number;
}

export interface NewsletterRow {
  id: string;
  uuid: string;
  name: string;
  description: string | null;
  feedback_enabled: boolean;
  slug: string;
  sender_name: string | null;
  sender_email: string | null;
  sender_reply_to: string;
  status: 'active' | 'archived';
  visibility: string;
  subscribe_on_signup: boolean;
  sort_order: number;
  header_image: string | null;
  show_header_icon: boolean;
  show_header_title: boolean;
  show_excerpt: boolean;
  title_font_category: string;
  title_alignment: string;
  show_feature_image: boolean;
  body_font_category: string;
  footer_content: string | null;
  show_badge: boolean;
  show_header_name: boolean;
  show_post_title_section: boolean;
  show_comment_cta: boolean;
  show_subscription_details: boolean;
  show_latest_posts: boolean;
  background_color: string;
  post_title_color: string | null;
  created_at: Date;
  updated_at: Date | null;
  button_corners: string;
  button_style: string;
  title_font_weight: string;
  link_style: string;
  image_corners: string;
  header_background_color: string;
  section_title_color: string | null;
  divider_color: string | null;
  button_color: string | null;
  link_color: string | null;
}

/**
 * Ghost's column names; the API speaks of `cadence` (interval), `type` (discount_type), `amount`, `display_title`.
 * The table also has Ghost 6's `redemption_type` (migration 0020), which only the db import and export read.
 */
export interface OfferRow {
  id: string;
  /** `status` on the API: active or archived. */
  active: boolean;
  name: string;
  code: string;
  product_id: string;
  stripe_coupon_id: string | null;
  interval: 'month' | 'year';
  currency: string | null;
  /** `fixed` on the API is `amount` here. */
  discount_type: 'percent' | 'amount' | 'trial';
  discount_amount: number;
  duration: 'once' | 'repeating' | 'forever' | 'trial';
  duration_in_months: number | null;
  portal_title: string | null;
  portal_description: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface MemberRow {
  id: string;
  uuid: string | null;
  transient_id: string;
  email: string;
  status: 'free' | 'paid' | 'comped';
  name: string | null;
  expertise: string | null;
  note: string | null;
  geolocation: string | null;
  enable_comment_notifications: boolean;
  email_count: number;
  email_opened_count: number;
  email_open_rate: number | null;
  email_disabled: boolean;
  last_seen_at: Date | null;
  last_commented_at: Date | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export interface MemberLabelRow {
  id: string;
  member_id: string;
  label_id: string;
  sort_order: number;
}

export interface MemberTierRow {
  id: string;
  member_id: string;
  product_id: string;
  sort_order: number;
  expiry_at: Date | null;
}

export interface MemberNewsletterRow {
  id: string;
  member_id: string;
  newsletter_id: string;
}
