import { GhostError } from '../../errors.js';
import { SafeString, createFrame, type Options } from './env.js';
import { runPartial } from './partials.js';

const slugify = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** `{{navigation}}` / `{{navigation type="secondary"}}`: the site's menu through the `navigation` template. */
export function navigation(this: Record<string, unknown>, options: Options) {
  const hash = { ...(options.hash as Record<string, unknown>) };
  const key = hash.type === 'secondary' ? 'secondary_navigation' : 'navigation';
  hash.isSecondary = hash.type === 'secondary';
  delete hash.type;
  const items = (options.data.site as Record<string, unknown>)[key];
  if (!Array.isArray(items)) throw new GhostError('IncorrectUsageError', { message: 'navigation data is not an object or is a function' });
  if (items.length === 0) return new SafeString('');
  const current = String(options.data.root.relativeUrl ?? '');
  this.navigation = (items as { label: string; url: string }[]).map((item) => ({
    current: Boolean(current) && item.url.replace(/\/+$/, '') === current.replace(/\/+$/, ''),
    label: item.label,
    slug: slugify(item.label),
    url: item.url,
  }));
  Object.assign(this, hash);
  return runPartial(options, 'navigation', this, { data: createFrame(options.data) });
}

/** `{{pagination}}`: the list's paging through the `pagination` template. */
export function pagination(this: Record<string, unknown>, options: Options) {
  const paging = this.pagination as Record<string, unknown> | undefined;
  if (!paging || typeof paging !== 'object') throw new GhostError('IncorrectUsageError', { message: 'pagination data is not an object or is a function' });
  Object.assign(this, paging, options.hash);
  return runPartial(options, 'pagination', this, { data: createFrame(options.data) });
}
