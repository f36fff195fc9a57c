import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, emailCode, emailCodeIsValid, hotp, matchTotp, normaliseCode } from './otp.js';
import { humanizeDuration } from './brute.js';

describe('one-time codes', () => {
  it('computes RFC 4226 HOTP test vectors', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 3, 9].map((counter) => hotp(key, counter))).toEqual(['755224', '287082', '359152', '969429', '520489']);
  });

  it('computes RFC 6238 TOTP (SHA-1, 30 s) test vectors, truncated to six digits', () => {
    const key = Buffer.from('12345678901234567890');
    for (const [seconds, code] of [
      [59, '287082'],
      [1111111109, '081804'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ] as const) {
      expect(matchTotp(key, code, { stepSeconds: 30, window: 0, at: seconds * 1000 })).toBe(Math.floor(seconds / 30));
    }
  });

  it("makes Ghost's e-mailed codes: 60 s steps keyed by session secret + user id, ±10 steps accepted", () => {
    // Computed by Ghost 5.130.6's otplib (totp, step 60) for this secret, user and time.
    const at = Date.UTC(2026, 10, 21, 13, 49, 22);
    const code = emailCode('5f2b1c', 'aaaaaaaaaaaaaaaaaaaaaa01', at);
    expect(code).toBe('553338');
    expect(emailCodeIsValid('5f2b1c', 'aaaaaaaaaaaaaaaaaaaaaa01', code, at + 10 * 60_000)).toBe(true);
    expect(emailCodeIsValid('5f2b1c', 'aaaaaaaaaaaaaaaaaaaaaa01', code, at + 11 * 60_000 + 60_000)).toBe(false);
    expect(emailCodeIsValid('5f2b1c', 'aaaaaaaaaaaaaaaaaaaaaa02', code, at)).toBe(false);
    expect(emailCodeIsValid('other', 'aaaaaaaaaaaaaaaaaaaaaa01', code, at)).toBe(false);
  });

  it('takes a real session secret (64 hex characters), longer than otplib allows by default', () => {
    const secret = 'f'.repeat(64);
    const at = Date.now();
    expect(emailCodeIsValid(secret, 'aaaaaaaaaaaaaaaaaaaaaa01', emailCode(secret, 'aaaaaaaaaaaaaaaaaaaaaa01', at), at)).toBe(true);
  });

  it('accepts six digits as text or number, nothing else', () => {
    expect(normaliseCode('012345')).toBe('012345');
    expect(normaliseCode(12345)).toBe('012345');
    expect([undefined, null, '', '12345', '1234567', 'abcdef', {}, [1]].map(normaliseCode)).toEqual(Array(8).fill(null));
  });

  it('round-trips base32', () => {
    const bytes = Buffer.from('12345678901234567890');
    expect(base32Encode(bytes)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(bytes);
  });
});

describe('humanizeDuration (moment fromNow(true))', () => {
  it.each([
    [30_000, 'a few seconds'],
    [60_000, 'a minute'],
    [10 * 60_000 - 5, '10 minutes'],
    [44 * 60_000, '44 minutes'],
    [60 * 60_000 - 10, 'an hour'],
    [3 * 3_600_000, '3 hours'],
    [24 * 3_600_000, 'a day'],
    [7 * 86_400_000, '7 days'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanizeDuration(ms)).toBe(text);
  });
});
