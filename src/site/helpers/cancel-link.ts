import { GhostError } from '../../errors.js';
import { SafeString, escape, type Options } from './env.js';

/** `{{cancel_link}}` inside a member's subscription: the Portal-driven link that cancels or continues it. */
export function cancel_link(this: Record<string, unknown>, options: Options) {
  const hash = (options?.hash ?? {}) as Record<string, string | undefined>;
  if (this.id === undefined || this.cancel_at_period_end === undefined)
    throw new GhostError('IncorrectUsageError', { message: 'The {{cancel_link}} helper was used outside of a subscription context.' });
  const cls = escape(hash.class ?? 'gh-subscription-cancel');
  const errorClass = escape(hash.errorClass ?? 'gh-error gh-error-subscription-cancel');
  const id = escape(String(this.id));
  const link = this.cancel_at_period_end
    ? `<a class="${cls}" data-members-continue-subscription="${id}" href="javascript:">${escape(hash.continueLabel ?? 'Continue subscription')}</a>`
    : `<a class="${cls}" data-members-cancel-subscription="${id}" href="javascript:">${escape(hash.cancelLabel ?? 'Cancel subscription')}</a>`;
  return new SafeString(`${link}\n<span class="${errorClass}" data-members-error></span>\n`);
}
