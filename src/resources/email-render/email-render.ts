import type { ReadDb } from '../../db/read-db.js';
import type { NewsletterRow, PostRow } from '../../db/schema.js';
import { loadConfig } from '../../config.js';
import { renderLexicalForEmail, renderMobiledoc } from '../../content/render.js';
import { emailHtmlToPlaintext } from '../../content/text.js';
import { lexicalFromStorage, mobiledocFromStorage, plaintextFromStorage } from '../../content/ghost-url.js';
import { postUrl as urlOfPost } from '../../content/urls.js';
import { readSettings } from '../../settings/settings.js';
import { cardDesign, designClasses, resolveDesign } from './email-render.design.js';
import { inlineAndFix, keepSegment, outlookEntities, replaceEmailLinks, segmentsOf } from './email-render.html.js';
import { authorNamesOfPost, emailMetaOfPost } from './email-render.queries.js';
import { replaceTokens, type ReplacementMember } from './email-render.replacements.js';
import { renderTemplate } from './email-render.template.js';
import { sizedImage } from './email-render.images.js';

export { recordEmailLinks } from './email-render.links.js';

export interface RenderedEmail {
  subject: string;
  html: string;
  plaintext: string;
}

export interface RecipientContext {
  recipientId: string;
  memberUuid: string;
  email: string;
  name: string | null;
  status: 'free' | 'paid' | 'comped';
  createdAt: Date;
  /** Built by the sender. */
  unsubscribeUrl: string;
  /** Built by the sender; null when email_track_opens is off. */
  openPixelUrl: string | null;
}

export interface RenderOptions {
  /** The site's URL with its trailing slash; read from the configuration when absent. */
  siteUrl?: string;
  /** Prefixes the subject with `[TEST] ` (test sends). */
  isTest?: boolean;
}

const DEFAULT_TIMEZONE = 'Etc/UTC';
/** `%%{created_at}%%` carries the site's timezone to personaliseEmail, which formats it per recipient. */
const CREATED_AT_TOKEN = /%%\{created_at\}%%/g;
const CREATED_AT_ZONED = /%%\{created_at@([\w/+-]+)\}%%/g;

function isPaidPost(post: PostRow): boolean {
  return post.visibility === 'paid' || post.visibility === 'tiers';
}

/**
 * The post rendered once for one segment (null for everyone, 'status:free', 'status:-free'), per-recipient
 * tokens still in it, as Ghost 5.130.6's email renderer renders it (click tracking aside: recordEmailLinks).
 */
export async function renderPostEmail(
  db: ReadDb,
  post: PostRow,
  newsletter: NewsletterRow,
  segment: string | null,
  options: RenderOptions = {},
): Promise<RenderedEmail & { segments: string[] }> {
  const siteUrl = options.siteUrl ?? loadConfig().siteUrl;
  const [settings, meta, authorNames] = await Promise.all([
    readSettings(db, ['title', 'icon', 'accent_color', 'timezone', 'comments_enabled']),
    emailMetaOfPost(db, post.id),
    authorNamesOfPost(db, post.id),
  ]);
  const siteTitle = settings.get('title') ?? '';
  const timezone = settings.get('timezone') || DEFAULT_TIMEZONE;
  const design = resolveDesign(newsletter, settings.get('accent_color') ?? null);
  const postUrl = urlOfPost(siteUrl, { slug: post.slug, uuid: post.uuid, status: post.status, type: post.type, email_only: meta?.email_only ?? false });

  let html = post.lexical
    ? await renderLexicalForEmail(lexicalFromStorage(post.lexical, siteUrl), { siteUrl, postUrl, design: cardDesign(newsletter, design) })
    : post.mobiledoc
      ? renderMobiledoc(mobiledocFromStorage(post.mobiledoc, siteUrl), { siteUrl })
      : '';
  const segments = segmentsOf(html);

  // The body may not print a member's uuid (only links and special places may): neutralise it before adding ours.
  html = html.replace(/%%\{uuid\}%%/g, '{uuid}');
  const cut = html.indexOf('<!--members-only-->');
  const addPaywall = isPaidPost(post) && cut !== -1 && segment === 'status:free';
  if (addPaywall) html = html.slice(0, cut);
  html = keepSegment(html, segment);

  const header = sizedImage(newsletter.header_image, siteUrl);
  const feature = sizedImage(post.feature_image, siteUrl);
  const showFeatureImage = newsletter.show_feature_image && !!feature.href;
  const icon = settings.get('icon');
  const iconUrl = icon ? new URL(icon.replace(/^__GHOST_URL__\//, ''), siteUrl).href : null;
  const publishedAt = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: timezone }).format(
    post.published_at ?? new Date(),
  );
  const authors = authorNames.length <= 2 ? authorNames.join(' & ') : `${authorNames[0]} & ${authorNames.length - 1} others`;
  const plaintext = post.plaintext ? plaintextFromStorage(post.plaintext, siteUrl) : null;
  const preheader = post.custom_excerpt
    ? post.custom_excerpt
    : plaintext
      ? (segment === 'status:free' ? emailHtmlToPlaintext(html) : plaintext).substring(0, 500)
      : `${post.title} – `;
  // Ghost links feedback to the post's public URL, which an unpublished post does not have: the site's then.
  const feedbackBase = post.status === 'published' ? postUrl : siteUrl;
  const feedbackLink = (score: number) => `${feedbackBase}#/feedback/${post.id}/${score}/?uuid=%%{uuid}%%&key=%%{key}%%`;

  html = renderTemplate({
    site: { title: siteTitle, url: siteUrl, iconUrl },
    preheader,
    html,
    post: {
      title: post.title,
      url: postUrl,
      authors,
      publishedAt,
      customExcerpt: post.custom_excerpt,
      featureImage: feature.href,
      featureImageWidth: feature.width,
      featureImageAlt: meta?.feature_image_alt ?? null,
      featureImageCaption: meta?.feature_image_caption ?? null,
      commentUrl: `${postUrl}#ghost-comments`,
    },
    newsletter: {
      name: newsletter.name,
      showPostTitleSection: newsletter.show_post_title_section,
      showExcerpt: newsletter.show_excerpt,
      showCommentCta: newsletter.show_comment_cta && settings.get('comments_enabled') !== 'off' && !(meta?.email_only ?? false),
      showSubscriptionDetails: newsletter.show_subscription_details,
    },
    headerImage: header.href,
    headerImageWidth: header.width,
    showHeaderIcon: newsletter.show_header_icon && !!iconUrl,
    showHeaderTitle: newsletter.show_header_title,
    showHeaderName: newsletter.show_header_name,
    showFeatureImage,
    showBadge: newsletter.show_badge,
    footerContent: newsletter.footer_content,
    hasHeaderContent: !!(
      header.href ||
      (newsletter.show_header_icon && iconUrl) ||
      newsletter.show_header_title ||
      newsletter.show_header_name ||
      newsletter.show_post_title_section ||
      showFeatureImage
    ),
    paywall: addPaywall ? { signupUrl: `${postUrl}#/portal/signup` } : null,
    feedbackButtons: newsletter.feedback_enabled ? { likeHref: feedbackLink(1), dislikeHref: feedbackLink(0) } : null,
    classes: designClasses(newsletter, !!post.custom_excerpt, showFeatureImage),
    design,
    year: String(new Date().getFullYear()),
  });

  html = replaceEmailLinks(html, postUrl);
  html = inlineAndFix(html, design.backgroundIsDark);
  // Member-independent tokens are settled now; created_at keeps the site's timezone for personaliseEmail.
  html = html.replace(/%%\{manage_account_url\}%%/g, `${siteUrl}#/portal/account`).replace(CREATED_AT_TOKEN, `%%{created_at@${timezone}}%%`);
  const text = emailHtmlToPlaintext(html);
  const subject = `${options.isTest ? '[TEST] ' : ''}${meta?.email_subject || post.title}`;
  return { subject, html: outlookEntities(html), plaintext: text, segments };
}

/** The values one recipient's tokens take. */
function replacementMember(recipient: Omit<RecipientContext, 'recipientId' | 'openPixelUrl'>, timezone: string): ReplacementMember {
  let key = '';
  try {
    key = new URL(recipient.unsubscribeUrl).searchParams.get('key') ?? '';
  } catch {
    // an unsubscribe URL that is not absolute has no key to give
  }
  return {
    uuid: recipient.memberUuid,
    email: recipient.email,
    name: recipient.name,
    status: recipient.status,
    createdAt: recipient.createdAt,
    key,
    unsubscribeUrl: recipient.unsubscribeUrl,
    manageAccountUrl: '',
    timezone,
  };
}

function personalise(text: string, recipient: Omit<RecipientContext, 'recipientId' | 'openPixelUrl'>): string {
  const zoned = text.replace(CREATED_AT_ZONED, (_whole, zone: string) => replaceTokens('%%{created_at}%%', replacementMember(recipient, zone)));
  return replaceTokens(zoned, replacementMember(recipient, DEFAULT_TIMEZONE));
}

/**
 * The copy one recipient gets: Ghost's replacements, the unsubscribe link, the open pixel (an <img> at the end
 * of the body, as Mailgun adds one).
 */
export function personaliseEmail(email: RenderedEmail, recipient: RecipientContext): { html: string; plaintext: string } {
  let html = personalise(email.html, recipient);
  if (recipient.openPixelUrl) {
    const pixel = `<img width="1" height="1" alt="" src="${recipient.openPixelUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
    const end = html.lastIndexOf('</body>');
    html = end === -1 ? html + pixel : html.slice(0, end) + pixel + html.slice(end);
  }
  return { html, plaintext: personalise(email.plaintext, recipient) };
}
