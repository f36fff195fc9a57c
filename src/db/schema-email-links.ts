/** Click tracking of newsletter links (migration 0023), Ghost's tables. */
export interface EmailLinkTables {
  redirects: RedirectRow;
  members_click_events: MemberClickEventRow;
}

/** A tracked link: `from` is the site-relative `/r/<8 hex>` path, `to` the original URL in its `__GHOST_URL__` form. */
export interface RedirectRow {
  id: string;
  from: string;
  to: string;
  post_id: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface MemberClickEventRow {
  id: string;
  member_id: string;
  redirect_id: string;
  created_at: Date;
}
