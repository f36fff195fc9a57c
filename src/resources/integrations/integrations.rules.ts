import { columnRules } from '../../db/column-rules.js';
import { errors } from '../../errors.js';

/** The integration columns a client writes, with Ghost's schema limits. The model takes strings only. */
export const INTEGRATION_RULES = columnRules({
  table: 'integrations',
  columns: {
    name: { type: 'text', maxLength: 191, nullable: false },
    icon_image: { type: 'text', maxLength: 2000 },
    description: { type: 'text', maxLength: 2000 },
  },
  toText(value, column) {
    if (value === null || typeof value === 'string') return value;
    throw errors.validation(`Validation (FieldIsInvalid) failed for ${JSON.stringify([column])}`);
  },
});
