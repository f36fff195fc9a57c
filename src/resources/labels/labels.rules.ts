import { columnRules } from '../../db/column-rules.js';

/**
 * The label model's column rules: the schema lets a name of spaces through, the model trims it and
 * then finds it blank (`Value in [labels.name] cannot be blank.`). They also hold for labels a member
 * write creates on the way.
 */
export const LABEL_RULES = columnRules({
  table: 'labels',
  columns: {
    name: { type: 'text', maxLength: 191, nullable: false },
  },
});
