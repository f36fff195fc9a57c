/**
 * Where "now" comes from. Every timestamp is read from the `Clock` carried by the context, so a test can
 * fix time and a job can run "as of" a moment.
 */
export interface Clock {
  /** Now at whole seconds, as Ghost stores and compares timestamps: what rows are written with. */
  now(): Date;
  /** Milliseconds since the epoch, unrounded: for lifetimes and expiry checks (tokens, invitations). */
  epochMs(): number;
}

/** A clock reading time from `source` (epoch milliseconds). */
export function clockFrom(source: () => number): Clock {
  return {
    now: () => new Date(Math.floor(source() / 1000) * 1000),
    epochMs: source,
  };
}

export const systemClock: Clock = clockFrom(() => Date.now());
