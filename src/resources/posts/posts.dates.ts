/**
 * Content API post dates: the instant shown in the site's time zone with its offset, as moment's
 * `toISOString(true)` writes it (`2026-11-21T13:06:16.000+00:00`, `…T02:06:16.000+13:00`).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      });
    } catch {
      // An unknown zone in settings must not break reads: fall back to UTC.
      return formatterFor('UTC');
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

export function zonedIso(date: Date | null, timeZone: string): string | null {
  if (!date) return null;
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(date).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMinutes = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const ms = pad(date.getUTCMilliseconds(), 3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
}
