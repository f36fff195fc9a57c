import Handlebars from 'handlebars';
import { createFrame, type Options } from './env.js';
import { visible } from './visibility.js';

const isPost = (item: unknown) => Boolean(item && typeof item === 'object' && 'html' in item && 'title' in item && 'slug' in item);

/** Ghost's `{{#foreach}}`: `limit`, `from`, `to`, `columns`, `visibility`, and `@first`/`@last`/`@index`/`@number`/`@even`/`@odd`/`@rowStart`/`@rowEnd`. */
export function foreach(this: unknown, input: unknown, options: Options) {
  let items: unknown = typeof input === 'function' ? (input as () => unknown).call(this) : input;
  const values = items && typeof items === 'object' ? Object.values(items) : [];
  let visibility = options.hash.visibility as string | undefined;
  if (values.length > 0 && isPost(values[0])) visibility ??= 'all';
  items = visible(items, visibility);
  const entries: [string, unknown][] = Array.isArray(items)
    ? items.map((item, index) => [String(index), item])
    : items && typeof items === 'object'
      ? Object.entries(items)
      : [];
  const length = entries.length;
  const columns = options.hash.columns as number | undefined;
  const limit = parseInt(String(options.hash.limit), 10) || length;
  const from = parseInt(String(options.hash.from), 10) || 1;
  let to = parseInt(String(options.hash.to), 10) || length;
  if (limit < length && from + limit <= length) to = from - 1 + limit;
  const contextPath =
    options.data && (options as unknown as { ids?: string[] }).ids
      ? `${(Handlebars.Utils as unknown as { appendContextPath(a: string, b: string): string }).appendContextPath(options.data.contextPath as string, (options as unknown as { ids: string[] }).ids[0]!)}.`
      : undefined;
  const frame = options.data ? createFrame(options.data) : undefined;
  let output = '';
  entries.forEach(([key, value], position) => {
    const current = position + 1;
    if (current < from || current > to) return;
    const index = current - 1;
    if (frame) {
      frame.key = Array.isArray(items) ? Number(key) : key;
      frame.index = index;
      frame.number = index + 1;
      frame.first = index === from - 1;
      frame.last = current === to;
      frame.even = index % 2 === 1;
      frame.odd = !frame.even;
      frame.rowStart = index % (columns as number) === 0;
      frame.rowEnd = index % (columns as number) === (columns as number) - 1;
      if (contextPath) frame.contextPath = contextPath + key;
    }
    output += options.fn(value, { data: frame, blockParams: [value, key] });
  });
  if (length === 0) output = options.inverse(this);
  return output;
}
