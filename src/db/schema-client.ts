/** Row types of the snippets, actions, notifications and recommendations migration (0010). */
export interface ClientTables {
  snippets: SnippetRow;
  actions: ActionRow;
  notifications: NotificationRow;
  notifications_seen: NotificationSeenRow;
  recommendations: RecommendationRow;
}

export interface SnippetRow {
  id: string;
  name: string;
  /** JSON string. */
  mobiledoc: string;
  /** JSON string. */
  lexical: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

/** One entry of the audit trail: who (`actor_*`) did what (`event`) to which record (`resource_*`). */
export interface ActionRow {
  id: string;
  /** Null for a bulk action, whose `context.count` says how many records it touched. */
  resource_id: string | null;
  resource_type: string;
  actor_id: string;
  actor_type: 'user' | 'integration';
  event: 'added' | 'edited' | 'deleted';
  /** JSON: `primary_name`, and per resource extras (`type` of a post, `key`/`group` of a setting). */
  context: string | null;
  created_at: Date;
}

/** A notification for the admin app, as Ghost keeps them (in its `notifications` setting). */
export interface NotificationRow {
  id: string;
  /** JSON: the notification as shown (Ghost's defaults, then whatever fields the client sent). */
  data: string;
  /** Added by a client rather than a release announcement; a new release notification replaces the old. */
  custom: boolean;
  created_at_version: string;
  added_at: Date;
}

/** A user who dismissed a notification (Ghost's `seenBy`). */
export interface NotificationSeenRow {
  notification_id: string;
  user_id: string;
}

export interface RecommendationRow {
  id: string;
  url: string;
  title: string;
  excerpt: string | null;
  featured_image: string | null;
  favicon: string | null;
  description: string | null;
  one_click_subscribe: boolean;
  created_at: Date;
  updated_at: Date | null;
}
