import type { EmailBatchRow, EmailRecipientFailureRow, EmailRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `emails` table. */
export const EMAIL_FIELDS = {
  id: 'text',
  post_id: 'text',
  uuid: 'text',
  status: 'text',
  recipient_filter: 'text',
  error: 'text',
  error_data: 'text',
  email_count: 'number',
  delivered_count: 'number',
  opened_count: 'number',
  failed_count: 'number',
  subject: 'text',
  from: 'text',
  reply_to: 'text',
  html: 'text',
  plaintext: 'text',
  source: 'text',
  source_type: 'text',
  track_opens: 'boolean',
  track_clicks: 'boolean',
  feedback_enabled: 'boolean',
  submitted_at: 'date',
  newsletter_id: 'text',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<EmailRow>;

/** Ghost's `email_batches` table. */
export const EMAIL_BATCH_FIELDS = {
  id: 'text',
  email_id: 'text',
  provider_id: 'text',
  status: 'text',
  member_segment: 'text',
  error_status_code: 'number',
  error_message: 'text',
  error_data: 'text',
  created_at: 'date',
  updated_at: 'date',
} as const satisfies FieldMap<EmailBatchRow>;

/** Ghost's `email_recipient_failures` table. */
export const EMAIL_FAILURE_FIELDS = {
  id: 'text',
  email_id: 'text',
  member_id: 'text',
  email_recipient_id: 'text',
  code: 'number',
  enhanced_code: 'text',
  message: 'text',
  severity: 'text',
  failed_at: 'date',
  event_id: 'text',
} as const satisfies FieldMap<EmailRecipientFailureRow>;
