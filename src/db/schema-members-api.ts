/** Row types of the Members API migration (0019). */
export interface MembersApiTables {
  tokens: SingleUseTokenRow;
  members_login_events: MemberLoginEventRow;
  members_feedback: MemberFeedbackRow;
}

/** A magic link's record: `data` is the JSON the link carries (email, type, name, labels, newsletters…). */
export interface SingleUseTokenRow {
  id: string;
  token: string;
  data: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
  first_used_at: Date | null;
  used_count: number;
}

export interface MemberLoginEventRow {
  id: string;
  member_id: string;
  created_at: Date;
}

export interface MemberFeedbackRow {
  id: string;
  score: number;
  member_id: string;
  post_id: string;
  created_at: Date;
  updated_at: Date | null;
}
