import { describe, expect, it } from 'vitest';
import { zonedIso } from './posts.dates.js';

describe('zonedIso', () => {
  it('formats in the site time zone with its offset, as moment does', () => {
    const date = new Date('2026-11-21T13:06:16.000Z');
    expect(zonedIso(date, 'Etc/UTC')).toBe('2026-11-21T13:06:16.000+00:00');
    expect(zonedIso(date, 'Pacific/Auckland')).toBe('2026-11-22T02:06:16.000+13:00');
    expect(zonedIso(date, 'America/New_York')).toBe('2026-11-21T08:06:16.000-05:00');
    expect(zonedIso(new Date('2026-07-01T00:00:00.000Z'), 'America/New_York')).toBe('2026-06-30T20:00:00.000-04:00');
    expect(zonedIso(date, 'Asia/Kolkata')).toBe('2026-11-21T18:36:16.000+05:30');
    expect(zonedIso(date, 'Not/AZone')).toBe('2026-11-21T13:06:16.000+00:00');
    expect(zonedIso(null, 'Etc/UTC')).toBeNull();
  });

  it('writes UTC instants as toISOString does, years past 9999 and before 1000 included', () => {
    const instants = [0, -1, 999, -62135596800000, -62198755200001, 253402300799999, 253402300800000, 951782400000, 4102444799999];
    for (let ms = -3e12; ms < 5e12; ms += 7_654_321_987) instants.push(ms);
    for (const ms of instants) expect(zonedIso(new Date(ms), 'Etc/UTC')).toBe(`${new Date(ms).toISOString().slice(0, -1)}+00:00`);
  });
});
