import moment from 'moment-timezone';
import { SafeString, type Options } from './env.js';
import { boundedMemo } from './memo.js';

/** A date's text depends only on the instant, format, timezone and locale: made once for each. */
const formatted = boundedMemo<string>(4000);

/** `{{date}}`, `{{date published_at format="D MMM YYYY"}}`, `timeago="true"`: moment formats in the site's timezone and locale. */
export function date(this: Record<string, unknown>, ...args: unknown[]) {
  const options = args.pop() as Options;
  let value: unknown = args.length > 0 ? args[0] : this.published_at;
  if (value === null) value = undefined;
  const site = (options.data.site ?? {}) as { timezone?: string; locale?: string };
  const hash = options.hash as { format?: string; timeago?: unknown; timezone?: string; locale?: string };
  const timezone = hash.timezone ?? site.timezone ?? 'Etc/UTC';
  const locale = hash.locale ?? site.locale;
  const parsed = value instanceof Date ? value.getTime() : Date.parse(String(value));
  const make = () => {
    const now = moment().tz(timezone);
    const when = Number.isNaN(parsed) ? now : moment.parseZone(value as string);
    if (locale && /^[^/\\]*$/.test(locale)) when.locale(locale);
    return hash.timeago ? when.tz(timezone).from(now) : when.tz(timezone).format(hash.format ?? 'll');
  };
  // "Now" and "time ago" move with the clock: never kept.
  if (hash.timeago || Number.isNaN(parsed)) return new SafeString(make());
  return new SafeString(formatted(`${typeof value === 'string' ? value : parsed}|${String(hash.format ?? '')}|${timezone}|${String(locale ?? '')}`, make));
}
