import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { RECOMMENDATION_FIELDS } from './recommendations.fields.js';

const column = columnOrder('recommendations', RECOMMENDATION_FIELDS);
const newestFirst = () => [column('created_at', 'desc')];

/** Recommendations: the same list on both APIs, newest first. */
export const RECOMMENDATIONS_BROWSE = browseSpecOf('recommendations', RECOMMENDATION_FIELDS, {
  api: { admin: { defaultOrder: newestFirst }, content: { defaultOrder: newestFirst } },
});
