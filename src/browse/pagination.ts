import { errors } from '../errors.js';

export interface PageRequest {
  page: number;
  /** null = `limit=all`. */
  limit: number | null;
}

/**
 * `limit` and `page` as Ghost reads them: checked with its loose patterns (422 otherwise), parsed with
 * parseInt, zero or unparsable limits falling back to the default.
 */
export function parsePageRequest(query: Record<string, unknown>, options: { defaultLimit?: number; maxLimit?: number } = {}): PageRequest {
  const defaultLimit = options.defaultLimit ?? 15;
  // A repeated parameter reaches Ghost as an array, which its checks and parseInt read as `a,b`.
  const rawLimit = Array.isArray(query.limit) ? query.limit.join(',') : query.limit;
  const rawPage = Array.isArray(query.page) ? query.page.join(',') : query.page;
  let limit: number | null = defaultLimit;
  if (rawLimit !== undefined) {
    if (typeof rawLimit !== 'string' || !/^\d+|all$/.test(rawLimit))
      throw errors.validation({ message: 'Validation (matches) failed for limit', context: 'undefined.limit' });
    limit = rawLimit === 'all' ? null : parseInt(rawLimit, 10) || defaultLimit;
  }
  if (options.maxLimit && (limit === null || limit > options.maxLimit)) limit = options.maxLimit;
  let page = 1;
  if (rawPage !== undefined) {
    if (typeof rawPage !== 'string' || !/^\d+$/.test(rawPage))
      throw errors.validation({ message: 'Validation (matches) failed for page', context: 'undefined.page' });
    page = parseInt(rawPage, 10) || 1;
  }
  return { page, limit };
}

export function paginationMeta({ page, limit }: PageRequest, total: number) {
  const pages = limit === null ? 1 : Math.max(1, Math.ceil(total / limit));
  return {
    pagination: {
      page,
      limit: limit ?? 'all',
      pages,
      total,
      next: pages > 1 && page !== pages ? page + 1 : null,
      prev: pages > 1 && page !== 1 ? page - 1 : null,
    },
  };
}

/** OFFSET/LIMIT for a query; `limit=all` reads everything. */
export function sqlWindow({ page, limit }: PageRequest): { offset: number; limit: number | null } {
  if (limit === null) return { offset: 0, limit: null };
  // `limit=99999999999999999999` is valid for Ghost; engines take 64-bit integers at most.
  const clamp = (value: number) => Math.min(value, Number.MAX_SAFE_INTEGER);
  return { offset: clamp((page - 1) * limit), limit: clamp(limit) };
}
