import { errors } from '../errors.js';
import type { FieldType } from './spec.js';

const INVALID = Symbol('invalid');
export type Coerced = string | number | boolean | Date | typeof INVALID;
export const isInvalid = (value: Coerced): value is typeof INVALID => value === INVALID;

// `2024-01-02`, `2024-01-02 03:04`, `2024-01-02T03:04:05.678Z`, `…+02:00`; no zone means UTC as in Ghost,
// whose relative dates (`now-1d`) arrive as `YYYY-MM-DD HH:MM:SS` in UTC.
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseDate(text: string): Date | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone] = m;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  // Years the three engines all store (MySQL's DATETIME starts at 1000).
  if (Number(y) < 1000) return null;
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A filter value as the column's type, or INVALID when it cannot be one (`featured:yes`, `published_at:soon`).
 * Text columns take numbers and booleans as their text, as SQLite compares them in Ghost.
 */
export function coerce(value: string | number | boolean, type: FieldType): Coerced {
  switch (type) {
    case 'text':
      // PostgreSQL text cannot hold NUL, so such a value could never match anyway.
      return String(value).includes('\0') ? INVALID : String(value);
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
      // Integer columns: a value outside 32 bits is an error on PostgreSQL, not a comparison.
      return Number.isFinite(number) && Math.abs(number) < 2 ** 31 ? number : INVALID;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return INVALID;
    case 'date':
      if (typeof value !== 'string') return INVALID;
      return parseDate(value) ?? INVALID;
  }
}

/** 422 for a value that cannot be compared with the column (Ghost on MySQL answers `Invalid value`). */
export const invalidValue = (field: string, type: FieldType) =>
  errors.validation({
    message: 'Invalid value',
    context: `${field} expects ${type === 'date' ? 'a date' : type === 'number' ? 'a number' : type === 'boolean' ? 'true or false' : 'text'}.`,
  });

export type MatchMode = 'contains' | 'starts' | 'ends';

/**
 * nql-lang turns `~'x'`, `~^'x'`, `~$'x'` into case-insensitive RegExps with the value escaped; this gets the
 * value and the mode back. Unlike Ghost (which drops the escaping first), a value that itself begins with
 * `^` or ends with `$` stays a plain contains.
 */
export function regexToMatch(regex: unknown): { mode: MatchMode; text: string } | null {
  if (!(regex instanceof RegExp)) return null;
  let source = regex.source;
  let mode: MatchMode = 'contains';
  if (source.startsWith('^')) {
    mode = 'starts';
    source = source.slice(1);
  } else if (source.endsWith('$') && /(^|[^\\])(\\\\)*\$$/.test(source)) {
    mode = 'ends';
    source = source.slice(0, -1);
  }
  // RegExp#source escapes line terminators (`\n`, `\u2028`) besides the characters nql-lang escaped.
  const text = source.replace(/\\(u[0-9a-fA-F]{4}|[\s\S])/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 'r' ? '\r' : c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : c,
  );
  return { mode, text };
}

/** LIKE pattern with `!` as the escape character (neutral on all three engines, unlike backslash). */
export function likePattern(text: string, mode: MatchMode): string {
  const escaped = text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return mode === 'starts' ? `${escaped}%` : mode === 'ends' ? `%${escaped}` : `%${escaped}%`;
}
