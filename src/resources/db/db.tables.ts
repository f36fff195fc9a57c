/**
 * What Ghost 5.130.6's exporter writes (`core/server/data/exporter/table-lists.js` and its schema): the tables
 * of a default export, the ones `?include=` may add, each with Ghost's columns in Ghost's schema order. The
 * export is built from these lists (an allow-list): a column of ours Ghost does not have (`posts.reading_time`)
 * never leaks, a table we do not keep is written as an empty list so the file has Ghost's shape. One column of
 * Ghost 6 is written too, where Ghost 6 writes it, so a Quire → Quire move keeps it: `offers.redemption_type`.
 */

/** A table's columns as Ghost writes them, or null for a table we do not keep (written as `[]`). */
type Columns = readonly string[] | null;

const USER_STAMPS = ['created_at', 'created_by', 'updated_at', 'updated_by'] as const;

/** Tables in Ghost's schema order (the order its export lists them). */
// prettier-ignore
const TABLES: [table: string, columns: Columns, kind: 'default' | 'backup'][] = [
  [
    'newsletters',
    [
      'id', 'uuid', 'name', 'description', 'feedback_enabled', 'slug', 'sender_name', 'sender_email', 'sender_reply_to', 'status', 'visibility',
      'subscribe_on_signup', 'sort_order', 'header_image', 'show_header_icon', 'show_header_title', 'show_excerpt', 'title_font_category',
      'title_alignment', 'show_feature_image', 'body_font_category', 'footer_content', 'show_badge', 'show_header_name', 'show_post_title_section',
      'show_comment_cta', 'show_subscription_details', 'show_latest_posts', 'background_color', 'post_title_color', 'created_at', 'updated_at',
      'button_corners', 'button_style', 'title_font_weight', 'link_style', 'image_corners', 'header_background_color', 'section_title_color',
      'divider_color', 'button_color', 'link_color',
    ],
    'default',
  ],
  [
    'posts',
    [
      'id', 'uuid', 'title', 'slug', 'mobiledoc', 'lexical', 'html', 'comment_id', 'plaintext', 'feature_image', 'featured', 'type', 'status', 'locale',
      'visibility', 'email_recipient_filter', ...USER_STAMPS, 'published_at', 'published_by', 'custom_excerpt', 'codeinjection_head', 'codeinjection_foot',
      'custom_template', 'canonical_url', 'newsletter_id', 'show_title_and_feature_image',
    ],
    'default',
  ],
  [
    'posts_meta',
    [
      'id', 'post_id', 'og_image', 'og_title', 'og_description', 'twitter_image', 'twitter_title', 'twitter_description', 'meta_title', 'meta_description',
      'email_subject', 'frontmatter', 'feature_image_alt', 'feature_image_caption', 'email_only',
    ],
    'default',
  ],
  [
    'users',
    [
      'id', 'name', 'slug', 'password', 'email', 'profile_image', 'cover_image', 'bio', 'website', 'location', 'facebook', 'twitter', 'threads', 'bluesky',
      'mastodon', 'tiktok', 'youtube', 'instagram', 'linkedin', 'accessibility', 'status', 'locale', 'visibility', 'meta_title', 'meta_description', 'tour',
      'last_seen', 'comment_notifications', 'free_member_signup_notification', 'paid_subscription_started_notification',
      'paid_subscription_canceled_notification', 'mention_notifications', 'recommendation_notifications', 'milestone_notifications',
      'donation_notifications', ...USER_STAMPS,
    ],
    'default',
  ],
  ['posts_authors', ['id', 'post_id', 'author_id', 'sort_order'], 'default'],
  ['roles', ['id', 'name', 'description', ...USER_STAMPS], 'default'],
  ['roles_users', ['id', 'role_id', 'user_id'], 'default'],
  ['permissions', ['id', 'name', 'object_type', 'action_type', 'object_id', ...USER_STAMPS], 'backup'],
  ['permissions_users', null, 'backup'],
  ['permissions_roles', null, 'backup'],
  ['settings', ['id', 'group', 'key', 'value', 'type', 'flags', ...USER_STAMPS], 'default'],
  [
    'tags',
    [
      'id', 'name', 'slug', 'description', 'feature_image', 'parent_id', 'visibility', 'og_image', 'og_title', 'og_description', 'twitter_image',
      'twitter_title', 'twitter_description', 'meta_title', 'meta_description', 'codeinjection_head', 'codeinjection_foot', 'canonical_url',
      'accent_color', ...USER_STAMPS,
    ],
    'default',
  ],
  ['posts_tags', ['id', 'post_id', 'tag_id', 'sort_order'], 'default'],
  // Ours hold hashes where Ghost holds usable tokens and session data: not exported, as the rows would mean nothing to Ghost.
  ['invites', null, 'backup'],
  ['brute', null, 'backup'],
  ['sessions', null, 'backup'],
  ['integrations', ['id', 'type', 'name', 'slug', 'icon_image', 'description', ...USER_STAMPS], 'backup'],
  [
    'webhooks',
    [
      'id', 'event', 'target_url', 'name', 'secret', 'api_version', 'integration_id', 'last_triggered_at', 'last_triggered_status',
      'last_triggered_error', ...USER_STAMPS,
    ],
    'backup',
  ],
  ['api_keys', ['id', 'type', 'secret', 'role_id', 'integration_id', 'user_id', 'last_seen_at', 'last_seen_version', ...USER_STAMPS], 'backup'],
  ['mobiledoc_revisions', null, 'backup'],
  [
    'post_revisions',
    [
      'id', 'post_id', 'lexical', 'created_at_ts', 'created_at', 'author_id', 'title', 'post_status', 'reason', 'feature_image', 'feature_image_alt',
      'feature_image_caption', 'custom_excerpt',
    ],
    'backup',
  ],
  [
    'members',
    [
      'id', 'uuid', 'transient_id', 'email', 'status', 'name', 'expertise', 'note', 'geolocation', 'enable_comment_notifications', 'email_count',
      'email_opened_count', 'email_open_rate', 'email_disabled', 'last_seen_at', 'last_commented_at', ...USER_STAMPS,
    ],
    'backup',
  ],
  [
    'products',
    [
      'id', 'name', 'slug', 'active', 'welcome_page_url', 'visibility', 'trial_days', 'description', 'type', 'currency', 'monthly_price', 'yearly_price',
      'created_at', 'updated_at', 'monthly_price_id', 'yearly_price_id',
    ],
    'default',
  ],
  [
    'offers',
    [
      'id', 'active', 'name', 'code', 'product_id', 'stripe_coupon_id', 'interval', 'currency', 'discount_type', 'discount_amount', 'duration',
      'duration_in_months', 'portal_title', 'portal_description', 'redemption_type', 'created_at', 'updated_at',
    ],
    'default',
  ],
  ['benefits', ['id', 'name', 'slug', 'created_at', 'updated_at'], 'default'],
  ['products_benefits', ['id', 'product_id', 'benefit_id', 'sort_order'], 'default'],
  ['members_products', ['id', 'member_id', 'product_id', 'sort_order', 'expiry_at'], 'backup'],
  ['posts_products', ['id', 'post_id', 'product_id', 'sort_order'], 'default'],
  ['members_created_events', null, 'backup'],
  ['members_cancel_events', null, 'backup'],
  ['members_payment_events', null, 'backup'],
  ['members_login_events', null, 'backup'],
  ['members_email_change_events', null, 'backup'],
  ['members_status_events', null, 'backup'],
  ['members_product_events', null, 'backup'],
  ['members_paid_subscription_events', null, 'backup'],
  ['labels', ['id', 'name', 'slug', ...USER_STAMPS], 'backup'],
  ['members_labels', ['id', 'member_id', 'label_id', 'sort_order'], 'backup'],
  ['members_stripe_customers', null, 'backup'],
  ['subscriptions', null, 'backup'],
  ['members_stripe_customers_subscriptions', null, 'backup'],
  ['members_subscription_created_events', null, 'backup'],
  ['offer_redemptions', null, 'default'],
  ['members_subscribe_events', null, 'backup'],
  ['donation_payment_events', null, 'backup'],
  ['stripe_products', null, 'default'],
  ['stripe_prices', null, 'default'],
  ['actions', ['id', 'resource_id', 'resource_type', 'actor_id', 'actor_type', 'event', 'context', 'created_at'], 'backup'],
  [
    'emails',
    [
      'id', 'post_id', 'uuid', 'status', 'recipient_filter', 'error', 'error_data', 'email_count', 'delivered_count', 'opened_count', 'failed_count',
      'subject', 'from', 'reply_to', 'html', 'plaintext', 'source', 'source_type', 'track_opens', 'track_clicks', 'feedback_enabled', 'submitted_at',
      'newsletter_id', ...USER_STAMPS,
    ],
    'backup',
  ],
  ['email_batches', null, 'backup'],
  ['email_recipients', null, 'backup'],
  ['email_recipient_failures', null, 'backup'],
  ['tokens', null, 'backup'],
  ['snippets', ['id', 'name', 'mobiledoc', 'lexical', ...USER_STAMPS], 'default'],
  ['custom_theme_settings', ['id', 'theme', 'key', 'type', 'value'], 'default'],
  ['members_newsletters', ['id', 'member_id', 'newsletter_id'], 'backup'],
  ['comments', null, 'backup'],
  ['comment_likes', null, 'backup'],
  ['comment_reports', null, 'backup'],
  // Ghost's own jobs table; ours (background work) has other columns and is not site content.
  ['jobs', null, 'backup'],
  ['redirects', null, 'backup'],
  ['members_click_events', null, 'backup'],
  ['members_feedback', null, 'backup'],
  ['suppressions', null, 'backup'],
  ['email_spam_complaint_events', null, 'backup'],
  ['mentions', null, 'backup'],
  ['milestones', null, 'backup'],
  ['collections', null, 'backup'],
  ['collections_posts', null, 'backup'],
  ['recommendations', ['id', 'url', 'title', 'excerpt', 'featured_image', 'favicon', 'description', 'one_click_subscribe', 'created_at', 'updated_at'], 'backup'],
  ['recommendation_click_events', null, 'backup'],
  ['recommendation_subscribe_events', null, 'backup'],
];

export interface ExportTable {
  name: string;
  columns: Columns;
}

/** Ghost's `BACKUP_TABLES`: the values `include` accepts on `GET /db/` and `POST /db/backup/`. */
// prettier-ignore
export const BACKUP_TABLES: readonly string[] = [
  'actions', 'api_keys', 'brute', 'donation_payment_events', 'emails', 'integrations', 'invites', 'labels', 'members', 'members_labels',
  'members_products', 'members_stripe_customers', 'members_stripe_customers_subscriptions', 'migrations', 'migrations_lock', 'permissions',
  'permissions_roles', 'permissions_users', 'webhooks', 'tokens', 'sessions', 'subscriptions', 'mobiledoc_revisions', 'post_revisions',
  'email_batches', 'email_recipients', 'email_recipient_failures', 'members_cancel_events', 'members_payment_events', 'members_login_events',
  'members_email_change_events', 'members_status_events', 'members_paid_subscription_events', 'members_subscribe_events', 'members_product_events',
  'members_created_events', 'members_subscription_created_events', 'members_newsletters', 'mentions', 'comments', 'comment_likes', 'comment_reports',
  'jobs', 'redirects', 'members_click_events', 'members_feedback', 'suppressions', 'email_spam_complaint_events', 'milestones', 'collections',
  'collections_posts', 'recommendations', 'recommendation_click_events', 'recommendation_subscribe_events',
];

/** Ghost's columns of `table` that we keep: what an import reads from a file's row. */
export function columnsOf(table: string): readonly string[] {
  const columns = TABLES.find(([name]) => name === table)?.[1];
  if (!columns) throw new Error(`no export columns for ${table}`);
  return columns;
}

/** The tables of an export with these `include` values, in Ghost's order. */
export function exportTables(include: readonly string[]): ExportTable[] {
  return TABLES.filter(([name, , kind]) => kind === 'default' || include.includes(name)).map(([name, columns]) => ({ name, columns }));
}

/**
 * Settings never written to an export: Ghost's `SETTING_KEYS_BLOCKLIST`, and also the site's own secrets
 * (session and signing keys), which Ghost writes but no importer reads; an export file travels by e-mail.
 */
export function isExportedSetting(key: string): boolean {
  return !SETTING_KEYS_BLOCKLIST.has(key) && !/secret|private_key/.test(key);
}

const SETTING_KEYS_BLOCKLIST = new Set([
  'stripe_connect_publishable_key',
  'stripe_connect_secret_key',
  'stripe_connect_account_id',
  'stripe_secret_key',
  'stripe_publishable_key',
  'members_stripe_webhook_id',
  'members_stripe_webhook_secret',
  'email_verification_required',
]);

/** Columns Ghost has and we do not keep (roles, settings and permissions carry no authorship here): Ghost's fixtures say the Owner. */
export const MISSING_COLUMN_VALUES: Readonly<Record<string, string>> = { created_by: '1', updated_by: '1' };
