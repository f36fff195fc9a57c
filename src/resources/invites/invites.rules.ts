import { columnRules } from '../../db/column-rules.js';

/** The invites columns a client sets, with Ghost's schema checks. */
export const INVITE_RULES = columnRules({
  table: 'invites',
  columns: {
    email: { type: 'text', maxLength: 191, nullable: false, isEmail: true },
  },
});
