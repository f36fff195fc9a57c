import { browseSpecOf } from '../../browse/spec-of.js';
import { batchRecipientCount } from './emails.queries.js';
import { EMAIL_BATCH_FIELDS, EMAIL_FAILURE_FIELDS, EMAIL_FIELDS } from './emails.fields.js';

/** No default order: Ghost's email models have none (the database's own). */
const ADMIN_ONLY = { admin: { defaultOrder: () => [] } };

/** `GET /emails/`. */
export const EMAILS_BROWSE = browseSpecOf('emails', EMAIL_FIELDS, { api: ADMIN_ONLY });

/** `GET /emails/:id/batches/`, with `include=count.recipients`. */
export const EMAIL_BATCHES_BROWSE = browseSpecOf('email_batches', EMAIL_BATCH_FIELDS, {
  counts: {
    'count.recipients': () => (eb) => batchRecipientCount(eb),
  },
  api: ADMIN_ONLY,
});

/** `GET /emails/:id/recipient-failures/`, with `include=member,email_recipient`. */
export const EMAIL_FAILURES_BROWSE = browseSpecOf('email_recipient_failures', EMAIL_FAILURE_FIELDS, {
  alwaysRead: ['id', 'member_id', 'email_recipient_id'],
  api: ADMIN_ONLY,
});
