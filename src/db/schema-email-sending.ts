/** Row types of the email-sending migration (0022): Ghost 5.130.6's batch, recipient and failure tables. */
export interface EmailSendingTables {
  email_batches: EmailBatchRow;
  email_recipients: EmailRecipientRow;
  email_recipient_failures: EmailRecipientFailureRow;
}

/** A slice of one email's recipients, sent by one instance at a time (its job holds the lease). */
export interface EmailBatchRow {
  id: string;
  email_id: string;
  /** Ghost's Mailgun message id; over SMTP there is none (null). */
  provider_id: string | null;
  status: 'pending' | 'submitting' | 'submitted' | 'failed';
  /** The segment its members share (`status:free`, `status:-free`), or null when the content is the same for all. */
  member_segment: string | null;
  error_status_code: number | null;
  error_message: string | null;
  error_data: string | null;
  created_at: Date;
  updated_at: Date;
}

/** One member's copy of one email; `processed_at` set once the SMTP server accepted or refused it for good. */
export interface EmailRecipientRow {
  id: string;
  email_id: string;
  member_id: string;
  batch_id: string;
  processed_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  failed_at: Date | null;
  member_uuid: string;
  member_email: string;
  member_name: string | null;
}

/** Why a recipient was not reached: the SMTP reply (`code`, enhanced code, text) and whether it may pass. */
export interface EmailRecipientFailureRow {
  id: string;
  email_id: string;
  member_id: string | null;
  email_recipient_id: string;
  code: number;
  enhanced_code: string | null;
  message: string;
  severity: 'temporary' | 'permanent';
  failed_at: Date;
  event_id: string | null;
}
