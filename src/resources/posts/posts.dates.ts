import { wallClock } from '../../content/dates.js';

/**
 * Content API post dates: the instant shown in the site's time zone with its offset, as moment's
 * `toISOString(true)` writes it (`2026-11-21T13:06:16.000+00:00`, `…T02:06:16.000+13:00`).
 */
const UTC_ZONES = new Set(['Etc/UTC', 'UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);
/** Offsets change at most hourly (DST): keyed by zone and hour, so a page of posts formats without Intl. */
const offsets = new Map<string, number>();
const HOUR_MS = 3600_000;

/** Minutes east of UTC for this zone at this instant. */
function offsetMinutes(ms: number, timeZone: string): number {
  const key = `${timeZone}:${Math.floor(ms / HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const { year, month, day, hour, minute, second } = wallClock(new Date(ms), timeZone);
    offset = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(ms / 1000) * 1000) / 60000);
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

const pad = (value: number) => String(Math.abs(value)).padStart(2, '0');

export function zonedIso(date: Date | null, timeZone: string): string | null {
  if (!date) return null;
  const ms = date.getTime();
  const offset = UTC_ZONES.has(timeZone) ? 0 : offsetMinutes(ms, timeZone);
  const local = isoWithoutZone(ms + offset * 60000);
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `toISOString()` without its `Z`, written out: V8 formats it through printf, 4 % of a cold pages answer's
 * instructions for its fifteen dates. Years outside 1000–9999 (and invalid dates) go through toISOString.
 */
function isoWithoutZone(ms: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString().slice(0, -1);
  const millis = date.getUTCMilliseconds();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
}
