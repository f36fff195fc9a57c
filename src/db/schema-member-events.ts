/** Row types of the member events migration (0015): what the members activity feed reads. */
export interface MemberEventTables {
  members_created_events: MemberCreatedEventRow;
  members_subscribe_events: MemberSubscribeEventRow;
  members_status_events: MemberStatusEventRow;
  members_email_change_events: MemberEmailChangeEventRow;
}

/** Where a member change came from, as Ghost tells them apart by the caller. */
export type MemberEventSource = 'member' | 'import' | 'system' | 'api' | 'admin';

/** A sign-up; the attribution and referrer columns stay empty here (no member sign-in or tracking). */
export interface MemberCreatedEventRow {
  id: string;
  created_at: Date;
  member_id: string;
  attribution_id: string | null;
  attribution_type: 'url' | 'post' | 'page' | 'author' | 'tag' | null;
  attribution_url: string | null;
  referrer_source: string | null;
  referrer_medium: string | null;
  referrer_url: string | null;
  source: MemberEventSource;
  batch_id: string | null;
}

/** A newsletter subscription (`subscribed: true`) or unsubscription. */
export interface MemberSubscribeEventRow {
  id: string;
  member_id: string;
  subscribed: boolean;
  created_at: Date;
  source: MemberEventSource | null;
  newsletter_id: string | null;
}

export type MemberStatus = 'free' | 'paid' | 'comped';

export interface MemberStatusEventRow {
  id: string;
  member_id: string;
  from_status: MemberStatus | null;
  to_status: MemberStatus | null;
  created_at: Date;
}

export interface MemberEmailChangeEventRow {
  id: string;
  member_id: string;
  to_email: string;
  from_email: string;
  created_at: Date;
}
