import type { PostTables } from './schema-posts.js';
import type { StaffTables } from './schema-staff.js';
import type { EventTables, WebhookTables } from './schema-events.js';
import type { MemberTables } from './schema-members.js';
import type { ClientTables } from './schema-client.js';
import type { PostMemberTables } from './schema-posts-members.js';
import type { JobTables } from './schema-jobs.js';
import type { MemberEventTables } from './schema-member-events.js';
import type { MembersApiTables } from './schema-members-api.js';
import type { ThemeSettingTables } from './schema-theme-settings.js';
import type { EmailSendingTables } from './schema-email-sending.js';
import type { EmailLinkTables } from './schema-email-links.js';

/**
 * Row types, one interface per table; column names are the JSON field names of the wire format.
 * Each group of tables lives with the migration that creates it and is joined here.
 */
export interface Database
  extends
    FoundationTables,
    PostTables,
    StaffTables,
    EventTables,
    WebhookTables,
    MemberTables,
    ClientTables,
    PostMemberTables,
    JobTables,
    MemberEventTables,
    MembersApiTables,
    ThemeSettingTables,
    EmailSendingTables,
    EmailLinkTables {}

export interface FoundationTables {
  settings: SettingRow;
  roles: RoleRow;
  users: UserRow;
  roles_users: RoleUserRow;
  sessions: SessionRow;
  integrations: IntegrationRow;
  api_keys: ApiKeyRow;
  cache_versions: CacheVersionRow;
  secrets_key_check: SecretsKeyCheckRow;
}

/** Version of a cache several instances keep (migration 0006): bumped by every write to what it caches. */
export interface CacheVersionRow {
  name: string;
  version: number;
}

/** A value sealed with the secrets key of the instance that started last (migration 0018). */
export interface SecretsKeyCheckRow {
  name: string;
  sealed: string;
  updated_at: Date;
}

export interface SettingRow {
  id: string;
  group: string;
  key: string;
  value: string | null;
  type: string;
  flags: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface RoleRow {
  id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface UserRow {
  id: string;
  name: string;
  slug: string;
  password: string;
  email: string;
  profile_image: string | null;
  cover_image: string | null;
  bio: string | null;
  website: string | null;
  location: string | null;
  facebook: string | null;
  twitter: string | null;
  threads: string | null;
  bluesky: string | null;
  mastodon: string | null;
  tiktok: string | null;
  youtube: string | null;
  instagram: string | null;
  linkedin: string | null;
  accessibility: string | null;
  status: string;
  locale: string | null;
  visibility: string;
  meta_title: string | null;
  meta_description: string | null;
  tour: string | null;
  last_seen: Date | null;
  comment_notifications: boolean;
  free_member_signup_notification: boolean;
  paid_subscription_started_notification: boolean;
  paid_subscription_canceled_notification: boolean;
  mention_notifications: boolean;
  recommendation_notifications: boolean;
  milestone_notifications: boolean;
  donation_notifications: boolean;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export interface RoleUserRow {
  id: string;
  role_id: string;
  user_id: string;
}

export interface SessionRow {
  id: string;
  /** sha256 of the cookie's session id: a copied table does not yield live sessions. */
  session_hash: string;
  user_id: string | null;
  origin: string | null;
  user_agent: string | null;
  ip: string | null;
  verified: boolean;
  /** The user this device proved itself for; a later login of that user from the same cookie skips the code. */
  verified_user_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface IntegrationRow {
  id: string;
  type: string;
  name: string;
  slug: string;
  icon_image: string | null;
  description: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export interface ApiKeyRow {
  id: string;
  type: 'admin' | 'content';
  secret: string;
  role_id: string | null;
  integration_id: string | null;
  user_id: string | null;
  last_seen_at: Date | null;
  last_seen_version: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export type * from './schema-posts.js';
export type * from './schema-staff.js';
export type * from './schema-members.js';
export type * from './schema-client.js';
export type * from './schema-events.js';
export type * from './schema-posts-members.js';
export type * from './schema-member-events.js';
export type * from './schema-email-sending.js';
export type * from './schema-email-links.js';
