import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { batchRecipientCount } from './emails.queries.js';
import { EMAIL_BATCH_FIELDS, EMAIL_FAILURE_FIELDS, EMAIL_FIELDS } from './emails.fields.js';

const EMAILS_FILTER: FilterSpec = { table: 'emails', fields: queryFields(EMAIL_FIELDS) };
const BATCHES_FILTER: FilterSpec = { table: 'email_batches', fields: queryFields(EMAIL_BATCH_FIELDS) };
const FAILURES_FILTER: FilterSpec = { table: 'email_recipient_failures', fields: queryFields(EMAIL_FAILURE_FIELDS) };

/** `GET /emails/`: Ghost's Email model has no default order (the database's own). */
export const EMAILS_BROWSE: BrowseSpec = {
  table: 'emails',
  filter: EMAILS_FILTER,
  order: { table: 'emails', attributes: attributesOf('emails', EMAILS_FILTER.fields) },
  columns: listColumns(EMAIL_FIELDS),
  alwaysRead: ['id'],
  api: { admin: { defaultOrder: () => [] } },
};

/** `GET /emails/:id/batches/`, with `include=count.recipients`. */
export const EMAIL_BATCHES_BROWSE: BrowseSpec = {
  table: 'email_batches',
  filter: BATCHES_FILTER,
  order: { table: 'email_batches', attributes: attributesOf('email_batches', BATCHES_FILTER.fields), counts: ['count.recipients'] },
  columns: listColumns(EMAIL_BATCH_FIELDS),
  alwaysRead: ['id'],
  counts: {
    'count.recipients': () => (eb) => batchRecipientCount(eb),
  },
  api: { admin: { defaultOrder: () => [] } },
};

/** `GET /emails/:id/recipient-failures/`, with `include=member,email_recipient`. */
export const EMAIL_FAILURES_BROWSE: BrowseSpec = {
  table: 'email_recipient_failures',
  filter: FAILURES_FILTER,
  order: { table: 'email_recipient_failures', attributes: attributesOf('email_recipient_failures', FAILURES_FILTER.fields) },
  columns: listColumns(EMAIL_FAILURE_FIELDS),
  alwaysRead: ['id', 'member_id', 'email_recipient_id'],
  api: { admin: { defaultOrder: () => [] } },
};
