import type { NewsletterRow } from '../../db/schema.js';

/**
 * The member filter of a newsletter send, as Ghost's email segmenter builds it: the newsletter's subscribers,
 * nobody whose address bounced or complained (`email_disabled`), the post's segment, and only paying members
 * for a paid newsletter. `segment` narrows it further to one content variant (`status:free`, `status:-free`).
 */
export function recipientFilter(newsletter: Pick<NewsletterRow, 'id' | 'visibility'>, recipientSegment: string, segment: string | null = null): string {
  const parts = [`newsletters.id:'${newsletter.id}'`, 'email_disabled:false'];
  if (recipientSegment !== 'all') parts.push(`(${recipientSegment})`);
  if (newsletter.visibility === 'paid') parts.push('status:-free');
  if (segment) parts.push(`(${segment})`);
  return parts.join('+');
}
