/** Row types of the staff migration (0003). */
export interface StaffTables {
  invites: InviteRow;
  brute: BruteRow;
  permissions: PermissionRow;
  staff_authenticators: StaffAuthenticatorRow;
  staff_recovery_codes: StaffRecoveryCodeRow;
}

export interface InviteRow {
  id: string;
  role_id: string;
  status: 'pending' | 'sent';
  /** sha256 of the token in the e-mailed link: the table alone does not let anyone sign up. */
  token_hash: string;
  email: string;
  /** Epoch milliseconds, as Ghost renders it. */
  expires: number;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

/** One limiter counter (Ghost's `brute` table): shared by every instance on the database. */
export interface BruteRow {
  /** sha256 of limiter name, client IP and the limiter's key. */
  key: string;
  count: number;
  /** Epoch milliseconds. */
  first_request: number;
  last_request: number;
  expires: number;
}

export interface PermissionRow {
  id: string;
  name: string;
  object_type: string;
  action_type: string;
  object_id: string | null;
  created_at: Date;
  updated_at: Date | null;
}

/** A user's authenticator app (TOTP, RFC 6238); `enabled` once a first code proved the set-up. */
export interface StaffAuthenticatorRow {
  user_id: string;
  /** The shared key sealed by `auth/secret-box.ts` (plain base32 in rows from before sealing, until start seals them). */
  secret: string;
  enabled: boolean;
  /** Last accepted time step: a code is never accepted twice. */
  last_used_step: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface StaffRecoveryCodeRow {
  id: string;
  user_id: string;
  /** sha256 of the normalised code. */
  code_hash: string;
  used_at: Date | null;
  created_at: Date;
}
