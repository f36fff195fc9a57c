import { columnRules } from '../../db/column-rules.js';

/**
 * The tag model's column rules. The admin schema already limits what clients send to `/tags/`; these
 * also hold for tags created on the way by a post or a bulk action (a tag named only by an unknown id
 * has no name: `Value in [tags.name] cannot be blank.`).
 */
export const TAG_RULES = columnRules({
  table: 'tags',
  columns: {
    name: { type: 'text', maxLength: 191, nullable: false },
  },
});
