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
  const local = new Date(ms + offset * 60000).toISOString().slice(0, -1);
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
