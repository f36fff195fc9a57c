import type { EmailBatchRow, EmailRecipientFailureRow, EmailRecipientRow, EmailRow, MemberRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** An email in Ghost's key order (`created_by`/`updated_by` never shown). */
export function presentEmailRow(email: EmailRow, { capOpened = false } = {}) {
  return {
    id: email.id,
    post_id: email.post_id,
    uuid: email.uuid,
    status: email.status,
    recipient_filter: email.recipient_filter,
    error: email.error,
    error_data: email.error_data,
    email_count: email.email_count,
    delivered_count: email.delivered_count,
    // Ghost caps the opened count at the recipients when it embeds an email in a post.
    opened_count: capOpened ? Math.min(email.opened_count, email.email_count) : email.opened_count,
    failed_count: email.failed_count,
    subject: email.subject,
    from: email.from,
    reply_to: email.reply_to,
    html: email.html,
    plaintext: email.plaintext,
    source: email.source,
    source_type: email.source_type,
    track_opens: email.track_opens,
    track_clicks: email.track_clicks,
    feedback_enabled: email.feedback_enabled,
    submitted_at: isoDate(email.submitted_at),
    newsletter_id: email.newsletter_id,
    created_at: isoDate(email.created_at),
    updated_at: isoDate(email.updated_at),
  };
}

/** A batch as Ghost's batch mapper shows it (`count.recipients` with `include=count.recipients`). */
export function presentBatch(batch: EmailBatchRow, recipients?: number) {
  return {
    id: batch.id,
    provider_id: batch.provider_id,
    status: batch.status,
    member_segment: batch.member_segment,
    created_at: isoDate(batch.created_at),
    updated_at: isoDate(batch.updated_at),
    error_status_code: batch.error_status_code,
    error_message: batch.error_message,
    error_data: batch.error_data,
    ...(recipients !== undefined ? { count: { recipients } } : {}),
  };
}

/** A failure as Ghost's failure mapper shows it: `member` and `email_recipient` null unless included. */
export function presentFailure(
  failure: EmailRecipientFailureRow,
  member: Pick<MemberRow, 'id' | 'uuid' | 'name' | 'email'> | undefined,
  recipient: EmailRecipientRow | undefined,
) {
  return {
    id: failure.id,
    code: failure.code,
    enhanced_code: failure.enhanced_code,
    message: failure.message,
    severity: failure.severity,
    failed_at: isoDate(failure.failed_at),
    event_id: failure.event_id,
    member: member ? { id: member.id, uuid: member.uuid, name: member.name, email: member.email } : null,
    email_recipient: recipient
      ? {
          id: recipient.id,
          batch_id: recipient.batch_id,
          processed_at: isoDate(recipient.processed_at),
          delivered_at: isoDate(recipient.delivered_at),
          opened_at: isoDate(recipient.opened_at),
          failed_at: isoDate(recipient.failed_at),
          member_uuid: recipient.member_uuid,
          member_email: recipient.member_email,
          member_name: recipient.member_name,
        }
      : null,
  };
}
