import type { EmailDesignValues } from './email-render.design.js';

/**
 * The newsletter's stylesheet, inlined into each element by juice (mail clients drop `<style>`); the media
 * queries stay in a `<style>` block for the clients that read them. Our own, shorter than Ghost's: it carries
 * the same design decisions (600px column, sans or serif title and body, the newsletter's colours, corners and
 * button style, the cards' email layouts), not Ghost's every rule.
 */
const SANS = `-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol'`;
const SERIF = `Georgia, serif`;

export function emailStyles(d: EmailDesignValues): string {
  const link =
    d.linkStyle === 'bold' ? 'font-weight: 700; text-decoration: none;' : d.linkStyle === 'regular' ? 'text-decoration: none;' : 'text-decoration: underline;';
  const button = d.hasOutlineButtons
    ? `background-color: transparent; border: 1px solid ${d.buttonColor}; color: ${d.buttonColor};`
    : `background-color: ${d.buttonColor}; color: ${d.buttonTextColor};`;
  const corners = d.hasRoundedImageCorners ? 'border-radius: 6px;' : '';
  const muted = d.backgroundIsDark ? 'rgba(255, 255, 255, 0.64)' : 'rgba(0, 0, 0, 0.6)';
  return `
body { background-color: ${d.backgroundColor}; font-family: ${SANS}; -webkit-font-smoothing: antialiased; font-size: 18px; line-height: 1.4; margin: 0; padding: 0; -ms-text-size-adjust: 100%; -webkit-text-size-adjust: 100%; color: ${d.textColor}; }
table { border-collapse: separate; mso-table-lspace: 0pt; mso-table-rspace: 0pt; width: 100%; }
table td { font-family: ${SANS}; font-size: 18px; vertical-align: top; color: ${d.textColor}; }
.preheader { color: transparent; display: none; height: 0; max-height: 0; max-width: 0; opacity: 0; overflow: hidden; mso-hide: all; visibility: hidden; width: 0; }
.body { background-color: ${d.backgroundColor}; width: 100%; }
.header { background-color: ${d.headerBackgroundColor ?? d.backgroundColor}; }
.header-main { background-color: transparent; }
.container { display: block; margin: 0 auto !important; max-width: 600px; padding: 0; }
.content { box-sizing: border-box; display: block; margin: 0 auto; max-width: 600px; }
.main { background: ${d.backgroundColor}; width: 100%; }
.wrapper { box-sizing: border-box; padding: 0 20px; }
.header-content { padding: 0 20px; }
.header-image { padding-top: 16px; }
.header-image img { max-width: 560px; width: 100%; }
.site-info { padding-top: 50px; }
.site-icon { padding-bottom: 10px; padding-top: 20px; text-align: center; }
.site-icon img { width: 48px; height: 48px; border-radius: 3px; }
.site-url { color: ${d.headerBackgroundIsDark ? '#FFFFFF' : '#15212A'}; font-size: 16px; letter-spacing: -0.1px; font-weight: 700; text-transform: uppercase; text-align: center; padding-bottom: 4px; }
.site-url-bottom-padding { padding-bottom: 12px; }
.site-title { color: ${d.headerBackgroundIsDark ? '#FFFFFF' : '#15212A'}; text-decoration: none; }
.site-subtitle { color: ${d.headerBackgroundIsDark ? 'rgba(255, 255, 255, 0.64)' : '#8b949a'}; font-weight: 400; text-decoration: none; text-transform: none; }
.post-title { padding-bottom: 10px; font-size: 42px; line-height: 1.1em; font-weight: ${d.titleWeight}; text-align: center; }
.post-title-serif { font-family: ${SERIF}; letter-spacing: -0.01em; }
.post-title-left { text-align: left; }
.post-title td { text-align: center; }
.post-title-left td { text-align: left; }
.post-title strong { font-weight: ${d.titleStrongWeight}; }
.post-title-link { display: block; margin-top: 32px; color: ${d.postTitleColor}; text-align: center; line-height: 1.1em; text-decoration: none; }
.post-title-link-left { text-align: left; }
.post-excerpt { margin: 0 auto 16px; max-width: 500px; color: ${d.postTitleColor}; font-size: 19px; line-height: 1.4em; text-align: center; }
.post-excerpt-serif-serif, .post-excerpt-serif-sans { font-family: ${SERIF}; }
.post-excerpt-left { text-align: left; }
.post-meta, .view-online { padding-bottom: 50px; white-space: nowrap; color: ${muted}; font-size: 13px; letter-spacing: 0.1px; text-align: center; }
.post-meta-left { text-align: left; }
.post-meta-left.view-online { text-align: right; }
.view-online-mobile { display: none; }
.view-online-link { white-space: nowrap; color: ${muted}; text-decoration: underline; }
.feature-image { padding-bottom: 30px; width: 100%; }
.feature-image img { ${corners} }
.feature-image-with-caption { padding-bottom: 10px; }
.feature-image-caption { width: 100%; padding-bottom: 30px; text-align: center; font-size: 13px; color: ${muted}; }
.post-content, .post-content-sans-serif { max-width: 600px !important; font-size: 17px; line-height: 1.5em; color: ${d.textColor}; padding-bottom: 20px; border-bottom: 1px solid ${d.dividerColor}; }
.post-content { font-family: ${SERIF}; }
.post-content-sans-serif { font-family: ${SANS}; }
.post-content a, .post-content-sans-serif a { color: ${d.linkColor}; ${link} }
p, ul, ol, dl, blockquote { margin: 0 0 1.5em 0; line-height: 1.6em; }
h1, h2, h3, h4, h5, h6 { margin-top: 0; font-family: ${SANS}; line-height: 1.11em; font-weight: 700; color: ${d.sectionTitleColor ?? d.textColor}; }
h1 { margin: 1.5em 0 0.5em 0; font-size: 42px; font-weight: 700; }
h2 { margin: 1.5em 0 0.5em 0; font-size: 32px; line-height: 1.22em; }
h3 { margin: 1.5em 0 0.5em 0; font-size: 26px; line-height: 1.25em; }
strong { font-weight: 700; }
blockquote { margin: 2em 0; padding-left: 20px; border-left: 3px solid ${d.accentColor}; font-size: 17px; font-style: italic; }
hr { position: relative; display: block; width: 100%; margin: 3em 0; padding: 0; height: 1px; border: 0; border-top: 1px solid ${d.dividerColor}; }
figure { margin: 0 0 1.5em; padding: 0 0 1.5em; }
figure img { margin: 0 auto; ${corners} }
img { border: none; -ms-interpolation-mode: bicubic; max-width: 100%; }
.kg-card-figcaption { padding-top: 10px; text-align: center; font-size: 13px; line-height: 1.4em; color: ${muted}; }
.kg-card-spacing { padding-bottom: 1.5em; }
.btn { box-sizing: border-box; width: auto; }
.btn td { background-color: ${d.buttonColor}; border-radius: ${d.buttonBorderRadius}; text-align: center; }
.btn a { ${button} border-radius: ${d.buttonBorderRadius}; box-sizing: border-box; cursor: pointer; display: inline-block; font-size: 16px; font-weight: 600; margin: 0; padding: 10px 20px; text-decoration: none; }
.kg-hr { width: 100%; border-top: 1px solid ${d.dividerColor}; }
.kg-hr td { font-size: 0; line-height: 0; }
.kg-hr-card hr { display: none; }
.kg-callout-card { display: flex; margin: 0 0 1.5em 0; padding: 20px 28px; border-radius: 3px; }
.kg-callout-card-grey { background: rgba(124, 139, 154, 0.13); }
.kg-callout-card-white { background: transparent; box-shadow: inset 0 0 0 1px rgba(124, 139, 154, 0.2); }
.kg-callout-card-blue { background: rgba(33, 172, 232, 0.12); }
.kg-callout-card-green { background: rgba(52, 183, 67, 0.12); }
.kg-callout-card-yellow { background: rgba(240, 165, 15, 0.13); }
.kg-callout-card-red { background: rgba(209, 46, 46, 0.11); }
.kg-callout-card-pink { background: rgba(225, 71, 174, 0.11); }
.kg-callout-card-purple { background: rgba(135, 85, 236, 0.12); }
.kg-callout-card-accent { background: ${d.accentColor}; color: ${d.accentContrastColor}; }
.kg-callout-emoji { padding-right: 12px; font-size: 20px; }
.kg-callout-text { font-size: 16px; line-height: 1.5em; }
.kg-paywall { padding-top: 10px; text-align: center; }
.kg-paywall h3 { margin: 0 0 8px; font-size: 24px; }
.kg-paywall .btn { margin: 0 auto; }
.feedback-buttons-container { padding: 24px 0; border-bottom: 1px solid ${d.dividerColor}; }
.feedback-button-text { margin: 4px 0 0; font-size: 13px; line-height: 1.4em; color: ${d.textColor}; }
.subscription-box { padding: 24px 0; border-bottom: 1px solid ${d.dividerColor}; }
.subscription-box h3 { margin: 0 0 8px; font-size: 18px; }
.subscription-box p { margin: 0; font-size: 14px; }
.subscription-details p { margin: 0; font-size: 14px; color: ${muted}; }
.manage-subscription a { font-size: 14px; color: ${d.textColor}; }
.hidden { display: none !important; }
.footer { color: ${muted}; font-size: 13px; line-height: 1.5em; padding: 10px 20px; text-align: center; }
.footer a { color: ${muted}; text-decoration: underline; }
.footer-powered { padding-top: 6px; padding-bottom: 40px; text-align: center; }
.gh-powered { width: 142px; height: 30px; }
@media only screen and (max-width: 620px) {
  table.body .container { padding: 0 !important; width: 100% !important; }
  table.body .wrapper { padding: 0 16px !important; }
  table.body .post-title { font-size: 32px !important; }
  table.body .view-online { display: none !important; }
  table.body .view-online-mobile { display: table-row !important; }
  table.body .desktop { display: none !important; }
}
`;
}
