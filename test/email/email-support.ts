import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/email');

/** The post every email test renders (recorded from Ghost with it): paragraphs, a link, a callout, a button, a free-only html card, the paywall. */
export const EMAIL_POST_LEXICAL = readFileSync(path.join(fixtures, 'post.lexical.json'), 'utf8');
export const EMAIL_POST = {
  title: 'The email test post',
  lexical: EMAIL_POST_LEXICAL,
  custom_excerpt: 'What this issue is about.',
  visibility: 'paid',
  email_subject: 'Issue one',
};

/** The second design (design.json): a newsletter with most options the other way, and a post with a feature image. */
export const DESIGN: { newsletter: Record<string, unknown>; post: Record<string, unknown> } = JSON.parse(
  readFileSync(path.join(fixtures, 'design.json'), 'utf8'),
);

export interface PeerPreviews {
  site: string;
  post: { id: string; uuid: string };
  previews: Record<'all' | 'status:free' | 'status:-free', { subject: string; html: string; plaintext: string }>;
  design: { post: { id: string; uuid: string }; newsletterUuid: string; preview: { subject: string; html: string; plaintext: string } };
  errors: Record<string, { status: number; body: { errors: { message: string; context: string | null; type: string }[] } }>;
}
export const PEER: PeerPreviews = JSON.parse(readFileSync(path.join(fixtures, 'peer-previews.json'), 'utf8'));

/**
 * Makes two renderings comparable: the site's address, the post's uuid, the newsletter's uuid, the unsubscribe
 * key and the dates become placeholders.
 */
export function normalise(text: string, site: string, postUuid: string, newsletterUuid: string): string {
  const origin = site.replace(/\/$/, '');
  return (
    text
      .split(origin)
      .join('SITE')
      .split(postUuid)
      .join('POST-UUID')
      .split(newsletterUuid)
      .join('NEWSLETTER-UUID')
      .replace(/key=[0-9a-f]{64}/g, 'key=KEY')
      .replace(/\b[0-9a-f]{24}\b/g, 'OBJECT-ID')
      // Short (the post's date) and long (the member's "Member since") month names.
      .replace(/\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4}\b/g, 'DATE')
      .replace(/© \d{4}|&#xA9; \d{4}|&copy; \d{4}/g, '© YEAR')
  );
}

/**
 * The markup without what the stylesheets decide (style attributes, the `<style>` block, the attributes juice
 * derives from CSS) and without layout whitespace: what the comparison with Ghost holds us to.
 */
export function markupOnly(html: string): string {
  return (
    html
      .replace(/<style[\s\S]*?<\/style>/g, '')
      // the template's notes to its readers, and an empty Outlook block of Ghost's stylesheet partial
      .replace(/<!-- [A-Z][^>]*?-->/g, '')
      .replace(/<!--\[if mso\]>\s*<!\[endif\]-->/g, '')
      .replace(/ (style|bgcolor|valign)="[^"]*"/g, '')
      .replace(/ class="\s*([^"]*?)\s*"/g, (_whole, names: string) => ` class="${names.replace(/\s+/g, ' ')}"`)
      .replace(/>\s+/g, '>')
      .replace(/\s+</g, '<')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Plaintext without its layout whitespace (blank lines, indentation), for comparing the words and links. */
export const textOnly = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
