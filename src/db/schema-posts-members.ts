/** Row types of the posts-meet-members migration (0013). */
export interface PostMemberTables {
  posts_products: PostTierRow;
  emails: EmailRow;
}

/** A tier a `visibility: tiers` post is for, in the post's order. */
export interface PostTierRow {
  id: string;
  post_id: string;
  product_id: string;
  sort_order: number;
}

/** The newsletter send record of a post (at most one per post). */
export interface EmailRow {
  id: string;
  post_id: string;
  uuid: string;
  status: 'pending' | 'submitting' | 'submitted' | 'failed';
  recipient_filter: string;
  error: string | null;
  /** Serialized JSON array of per-batch failures, when sending reports any. */
  error_data: string | null;
  email_count: number;
  delivered_count: number;
  opened_count: number;
  failed_count: number;
  subject: string | null;
  from: string | null;
  reply_to: string | null;
  html: string | null;
  plaintext: string | null;
  source: string | null;
  source_type: 'html' | 'lexical' | 'mobiledoc';
  track_opens: boolean;
  track_clicks: boolean;
  feedback_enabled: boolean;
  submitted_at: Date;
  newsletter_id: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}
