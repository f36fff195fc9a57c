import { errors } from '../errors.js';
import { assertOrderParam } from './order.js';
import { parsePageRequest, type PageRequest } from './pagination.js';
import { parseInclude } from './include.js';
import { parseFields } from './projection.js';
import { queryList } from './query-list.js';

/**
 * The browse options of a list endpoint, checked as Ghost's api-framework checks them
 * before the controller runs: `limit`/`page`/`order` patterns → 422, `formats` outside the allowed list
 * → 422, unknown `include` values dropped silently. `include`, `fields` and `formats` are trimmed and
 * lower-cased.
 */
export interface BrowseParams {
  /** NQL text as sent (null when absent or empty). */
  filter: string | null;
  /** Raw `order` (validated); null when absent or empty — then the resource's default order applies. */
  order: string | string[] | null;
  page: PageRequest;
  /** Requested fields; null when the request names none. */
  fields: string[] | null;
  /** Allowed include values in request order. */
  include: string[];
  /** Requested formats; null when absent. */
  formats: string[] | null;
  /** `search` text (members only: the spec's `search` rule decides what it matches); null when absent or empty. */
  search: string | null;
}

export interface BrowseParamRules {
  /** `include` values this endpoint accepts. */
  include?: readonly string[];
  /** `formats` values this endpoint accepts (posts, pages, snippets); others ignore `formats`. */
  formats?: readonly string[];
  /** Members clamp `limit` (and `all`) to 100. */
  maxLimit?: number;
}

type Query = Record<string, unknown>;

export function parseBrowseParams(query: Query, rules: BrowseParamRules = {}): BrowseParams {
  // Formats are checked first, as the posts endpoints always have.
  const formats = rules.formats ? parseFormats(query.formats, rules.formats) : null;
  const page = parsePageRequest(query, { maxLimit: rules.maxLimit });
  if (query.order !== undefined) assertOrderParam(query.order);
  return {
    filter: filterText(query.filter),
    order: query.order === undefined || query.order === '' ? null : (query.order as string | string[]),
    page,
    fields: parseFields(query.fields),
    include: parseInclude(query.include, rules.include ?? []),
    formats,
    search: typeof query.search === 'string' && query.search !== '' ? query.search : null,
  };
}

/** `formats=a,b` on browse and read: a value outside `allowed` is a 422 (`formats=` alone is accepted); null when absent. */
export function parseFormats(raw: unknown, allowed: readonly string[]): string[] | null {
  const formats = queryList(raw);
  if (formats && formats.some((format) => !allowed.includes(format))) throw errors.validation('Validation (AllowedValues) failed for formats');
  return formats;
}

/** `filter` given twice is not something NQL can mean: Ghost fails with a 500, we with its parse error. */
function filterText(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw errors.badRequest('Error parsing filter');
  return raw;
}
