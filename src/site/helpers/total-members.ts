import { SafeString, envOf, type Options } from './env.js';
import { countMembers } from '../site.queries.js';

/** Ghost's rounding of member counts for display (`utils/member-count.js`): exact to 50, then floored with a `+`. */
export function memberCountRounding(total: number): string {
  const floor = (step: number) => Math.floor(total / step) * step;
  const human = (n: number) => (n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}m` : `${+(n / 1000).toFixed(1)}k`);
  if (total <= 50) return String(total);
  if (total <= 100) return `${floor(10).toLocaleString('en-US')}+`;
  if (total <= 1000) return `${floor(50).toLocaleString('en-US')}+`;
  if (total <= 10_000) return `${floor(100).toLocaleString('en-US')}+`;
  if (total <= 100_000) return `${floor(1000).toLocaleString('en-US')}+`;
  if (total <= 1_000_000) return `${human(floor(10_000))}+`;
  return `${human(floor(100_000))}+`;
}

function countHelper(paid: boolean) {
  return function (this: Record<string, unknown>, options: Options, done: (value: unknown) => void): void {
    if (typeof this.total === 'number' && this.total) return done(new SafeString(memberCountRounding(this.total)));
    const { ctx } = envOf(options);
    countMembers(ctx.db, paid).then(
      (row) => {
        const total = Number(row?.total ?? 0);
        done(new SafeString(total > 0 ? memberCountRounding(total) : '0'));
      },
      () => done(new SafeString('0')),
    );
  };
}

/** `{{total_members}}` and `{{total_paid_members}}`: the number of members (paid ones), rounded as Ghost shows it. */
export const total_members = countHelper(false);
export const total_paid_members = countHelper(true);
