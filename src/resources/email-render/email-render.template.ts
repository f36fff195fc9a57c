import { emailStyles } from './email-render.styles.js';
import type { EmailDesignValues, designClasses } from './email-render.design.js';

/**
 * The newsletter's frame around a post, in the markup of Ghost 5.130.6's email template (tables for Outlook,
 * a header with the site and post title, the content, the paywall CTA, the footer with the unsubscribe link
 * and the badge). Values are escaped here; `html`, `footerContent` and the caption are trusted html.
 */
export interface TemplateData {
  site: { title: string; url: string; iconUrl: string | null };
  preheader: string;
  html: string;
  post: {
    title: string;
    url: string;
    authors: string;
    publishedAt: string;
    customExcerpt: string | null;
    featureImage: string | null;
    featureImageWidth: number;
    featureImageAlt: string | null;
    featureImageCaption: string | null;
    commentUrl: string;
  };
  newsletter: { name: string; showPostTitleSection: boolean; showExcerpt: boolean; showCommentCta: boolean; showSubscriptionDetails: boolean };
  headerImage: string | null;
  headerImageWidth: number;
  showHeaderIcon: boolean;
  showHeaderTitle: boolean;
  showHeaderName: boolean;
  showFeatureImage: boolean;
  showBadge: boolean;
  footerContent: string | null;
  hasHeaderContent: boolean;
  paywall: { signupUrl: string } | null;
  feedbackButtons: { likeHref: string; dislikeHref: string } | null;
  classes: ReturnType<typeof designClasses>;
  design: EmailDesignValues;
  year: string;
}

export const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const e = escapeHtml;

/** Outlook ignores max-width: it gets a centred 600px table around each section. */
const MSO_OPEN = `<!--[if mso]><tr><td><center><table border="0" cellpadding="0" cellspacing="0" width="600"><![endif]-->`;
const MSO_CLOSE = `<!--[if mso]></table></center></td></tr><![endif]-->`;

function siteInfo(d: TemplateData): string {
  if (!(d.showHeaderIcon || d.showHeaderTitle || d.showHeaderName)) return '';
  const row = (cell: string) => `<tr>${cell}</tr>`;
  const line = (cls: string, text: string, bottom: boolean) =>
    row(
      `<td class="site-url${bottom ? ' site-url-bottom-padding' : ''}"><div style="width: 100% !important;"><a href="${e(d.site.url)}" class="${cls}">${e(text)}</a></div></td>`,
    );
  const rows = [
    d.showHeaderIcon && d.site.iconUrl
      ? row(
          `<td class="site-icon"><a href="${e(d.site.url)}"><img src="${e(d.site.iconUrl)}" alt="${e(d.site.title)}" border="0" width="48" height="48"></a></td>`,
        )
      : '',
    d.showHeaderTitle ? line('site-title', d.site.title, !d.showHeaderName) : '',
    d.showHeaderName && d.showHeaderTitle ? line('site-subtitle', d.newsletter.name, true) : '',
    d.showHeaderName && !d.showHeaderTitle ? line('site-title', d.newsletter.name, true) : '',
  ];
  return `<tr class="site-info-row"><td class="site-info" width="100%" align="center"><table role="presentation" border="0" cellpadding="0" cellspacing="0">${rows.join('')}</table></td></tr>`;
}

function titleSection(d: TemplateData): string {
  if (!d.newsletter.showPostTitleSection) return '';
  const viewOnline = `<a href="${e(d.post.url)}" class="view-online-link">View in browser</a>`;
  const excerpt =
    d.newsletter.showExcerpt && d.post.customExcerpt
      ? `<tr><td class="post-excerpt-wrapper" style="width: 100%"><p class="${d.classes.excerpt}">${e(d.post.customExcerpt)}</p></td></tr>`
      : '';
  return (
    `<tr><td class="${d.classes.title}"><table role="presentation" border="0" cellpadding="0" cellspacing="0"><tr><td>` +
    `<a href="${e(d.post.url)}" class="${d.classes.titleLink}">${e(d.post.title)}</a></td></tr></table></td></tr>` +
    excerpt +
    `<tr><td width="100%" style="width: 100%" align="center"><table class="post-meta-wrapper" role="presentation" border="0" cellpadding="0" cellspacing="0" width="100%" style="padding-bottom: 32px;">` +
    `<tr><td height="20" class="${d.classes.meta}" style="padding: 0;">By ${e(d.post.authors)} • <span class="post-meta-date">${e(d.post.publishedAt)} </span></td>` +
    `<td class="${d.classes.meta} view-online desktop">${viewOnline}</td></tr>` +
    `<tr class="${d.classes.meta} view-online-mobile"><td height="20" class="view-online">${viewOnline}</td></tr></table></td></tr>`
  );
}

function featureImage(d: TemplateData): string {
  if (!d.showFeatureImage || !d.post.featureImage) return '';
  const caption = d.post.featureImageCaption;
  const width = d.post.featureImageWidth ? ` width="${d.post.featureImageWidth}"` : '';
  const alt = d.post.featureImageAlt ? ` alt="${e(d.post.featureImageAlt)}"` : '';
  return (
    `<tr class="feature-image-row"><td class="feature-image${caption ? ' feature-image-with-caption' : ''}" align="center"><img src="${e(d.post.featureImage)}"${width}${alt}></td></tr>` +
    (caption ? `<tr><td align="center"><div class="feature-image-caption">${caption}</div></td></tr>` : '')
  );
}

function header(d: TemplateData): string {
  if (!d.hasHeaderContent) return '';
  const image = d.headerImage
    ? `<tr class="header-image-row"><td class="header-image" width="100%" align="center"><a href="${e(d.site.url)}"><img src="${e(d.headerImage)}"${d.headerImageWidth ? ` width="${d.headerImageWidth}"` : ''}></a></td></tr>`
    : '';
  return (
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" class="header" width="100%">${MSO_OPEN}<tr><td>&nbsp;</td>` +
    `<td class="${d.classes.container}" align="center"><div class="content"><table role="presentation" border="0" cellpadding="0" cellspacing="0" class="header-main"><tr><td class="header-content">` +
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" width="100%">${image}${siteInfo(d)}${titleSection(d)}${featureImage(d)}</table>` +
    `</td></tr></table></div></td><td>&nbsp;</td></tr>${MSO_CLOSE}</table>`
  );
}

function paywall(d: TemplateData): string {
  if (!d.paywall) return '';
  return (
    `<div class="kg-paywall align-center"><table class="kg-paywall-hr" role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0"><tbody><tr><td>` +
    `<!--[if !mso]><!-- --><hr style="display: none;"><!--<![endif]--><table class="kg-hr" role="presentation" border="0" cellpadding="0" cellspacing="0"><tbody><tr><td>&nbsp;</td></tr></tbody></table>` +
    `</td></tr></tbody></table><h3>Upgrade to continue reading.</h3><p>Become a paid member of ${e(d.site.title)} to get access to all premium content.</p>` +
    `<table border="0" cellpadding="0" cellspacing="0"><tr><td><table class="btn" border="0" cellspacing="0" cellpadding="0" align="center"><tr><td align="center">` +
    `<a href="${e(d.paywall.signupUrl)}">Upgrade</a></td></tr></table></td></tr></table><p></p></div>`
  );
}

function feedbackButton(href: string, text: string, icon: string): string {
  return (
    `<td dir="ltr" valign="top" align="center" style="display: inline-block; vertical-align: top; font-family: inherit; text-align: center; padding: 0 4px 4px; cursor: pointer; width: 30%;">` +
    `<a href="${e(href)}" target="_blank"><img src="https://static.ghost.org/v5.0.0/images/${icon}-mobile.png" border="0" width="42" height="42" alt="${text}">` +
    `<p class="feedback-button-text">${text}</p></a></td>`
  );
}

function feedback(d: TemplateData): string {
  if (!d.feedbackButtons && !d.newsletter.showCommentCta) return '';
  const buttons = [
    d.feedbackButtons ? feedbackButton(d.feedbackButtons.likeHref, 'More like this', 'more-like-this') : '',
    d.feedbackButtons ? feedbackButton(d.feedbackButtons.dislikeHref, 'Less like this', 'less-like-this') : '',
    d.newsletter.showCommentCta ? feedbackButton(d.post.commentUrl, 'Comment', 'comment') : '',
  ];
  return `<tr><td class="feedback-buttons-container" dir="ltr" width="100%" align="center"><table class="feedback-buttons" role="presentation" border="0" cellpadding="0" cellspacing="0"><tr>${buttons.join('')}</tr></table></td></tr>`;
}

function subscriptionDetails(d: TemplateData): string {
  if (!d.newsletter.showSubscriptionDetails) return '';
  return (
    `<tr><td class="subscription-box"><h3>Subscription details</h3><p style="margin-bottom: 16px;"><span>You are receiving this because you are a <strong>%%{status}%% subscriber</strong> to ${e(d.site.title)}.</span> %%{status_text}%%</p>` +
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" width="100%"><tr><td class="subscription-details">` +
    `<p class="%%{name_class}%%">Name: %%{name, "not provided"}%%</p><p>Email: <a href="#">%%{email}%%</a></p><p>Member since: %%{created_at}%%</p></td>` +
    `<td align="right" valign="bottom" class="manage-subscription"><a href="%%{manage_account_url}%%"> Manage subscription</a></td></tr></table></td></tr>`
  );
}

function footer(d: TemplateData): string {
  const custom = d.footerContent ? `<tr><td class="footer">${d.footerContent}</td></tr>` : '';
  const badge = d.showBadge
    ? `<tr><td class="footer-powered"><a href="https://ghost.org/?via=pbg-newsletter"><img src="https://static.ghost.org/v4.0.0/images/powered.png" border="0" width="142" height="30" class="gh-powered" alt="Powered by Ghost"></a></td></tr>`
    : '';
  return (
    `<tr><td class="wrapper" align="center"><table role="presentation" border="0" cellpadding="0" cellspacing="0" width="100%" style="padding-top: 40px; padding-bottom: 30px;">` +
    `${custom}<tr><td class="footer">${e(d.site.title)} &copy; ${d.year} – <a href="%%{unsubscribe_url}%%">Unsubscribe</a></td></tr>${badge}</table></td></tr>`
  );
}

/**
 * Line breaks between the frame's rows and cells, as in Ghost's template: the plaintext part is made from the
 * html, and html-to-text turns them into the blank lines that separate the header, the post and the footer.
 */
const spaced = (html: string) => html.replace(/<\/(td|tr|table)>/g, '</$1>\n');

export function renderTemplate(d: TemplateData): string {
  const head =
    `<!doctype html><html><head><meta name="viewport" content="width=device-width"><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">` +
    `<!--[if mso]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch><o:AllowPNG/></o:OfficeDocumentSettings></xml><![endif]-->` +
    `<title>${e(d.post.title)}</title><style>${emailStyles(d.design)}</style></head><body><span class="preheader">${e(d.preheader)}</span>\n` +
    header(d) +
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" class="body" width="100%">${MSO_OPEN}<tr><td>&nbsp;</td><td class="${d.classes.container}"><div class="content">` +
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" class="main" width="100%"><tr><td class="wrapper"><table role="presentation" border="0" cellpadding="0" cellspacing="0" width="100%">` +
    `<tr class="post-content-row"><td class="${d.classes.body}">\n`;
  const tail =
    `\n${paywall(d)}</td></tr></table></td></tr>` +
    feedback(d) +
    subscriptionDetails(d) +
    footer(d) +
    `</table></div></td><td>&nbsp;</td></tr>${MSO_CLOSE}</table></body></html>`;
  return `${spaced(head)}<!-- POST CONTENT START -->${d.html}<!-- POST CONTENT END -->${spaced(tail)}`;
}
