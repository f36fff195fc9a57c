/** Admin API timestamps: UTC with milliseconds and `Z`, `null` stays null. */
export function isoDate(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}

/** What a clock on the wall shows at an instant in a time zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const wallFormatters = new Map<string, Intl.DateTimeFormat | null>();

function wallFormatter(timeZone: string): Intl.DateTimeFormat | null {
  if (!wallFormatters.has(timeZone)) {
    let formatter: Intl.DateTimeFormat | null = null;
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      // An unknown zone in settings must not break reads: it is shown as UTC.
    }
    wallFormatters.set(timeZone, formatter);
  }
  return wallFormatters.get(timeZone)!;
}

/** The site's wall clock at `at` (the settings' `timezone`); a zone `Intl` does not know reads as UTC. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const formatter = wallFormatter(timeZone);
  if (!formatter) {
    return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate(), hour: at.getUTCHours(), minute: at.getUTCMinutes(), second: at.getUTCSeconds() };
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}
