import type { NewsletterRow } from '../../db/schema.js';

/**
 * The colours, weights and classes of a newsletter's design, resolved as Ghost 5.130.6's email renderer resolves
 * the newsletter's columns (an invalid or missing colour falls back; `accent` is the site's accent colour).
 */
const DEFAULT_ACCENT = '#15212A';
const HEX = /#([0-9a-f]{3}){1,2}$/i;

/** Black or white, whichever reads on `background` (the YIQ threshold Ghost and Portal share). */
export function contrastText(background: string): string {
  let hex = background.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const n = Number.parseInt(hex, 16);
  const yiq = ((n >> 16) & 255) * 0.299 + ((n >> 8) & 255) * 0.587 + (n & 255) * 0.114;
  return yiq >= 186 ? '#000000' : '#FFFFFF';
}

const isWhite = (hex: string) => hex.toLowerCase() === '#ffffff';

export interface EmailDesignValues {
  accentColor: string;
  accentContrastColor: string;
  backgroundColor: string;
  backgroundIsDark: boolean;
  headerBackgroundColor: string | null;
  headerBackgroundIsDark: boolean;
  postTitleColor: string;
  sectionTitleColor: string | null;
  textColor: string;
  linkColor: string;
  dividerColor: string;
  buttonColor: string;
  buttonTextColor: string;
  buttonBorderRadius: string;
  hasOutlineButtons: boolean;
  hasRoundedImageCorners: boolean;
  titleWeight: string;
  titleStrongWeight: string;
  linkStyle: string;
}

export function resolveDesign(newsletter: NewsletterRow, accentSetting: string | null): EmailDesignValues {
  const accentColor = accentSetting && HEX.test(accentSetting) ? accentSetting : DEFAULT_ACCENT;
  const backgroundColor = HEX.test(newsletter.background_color) ? newsletter.background_color : '#ffffff';
  const headerValue = newsletter.header_background_color;
  const headerBackgroundColor = headerValue === 'accent' ? accentColor : headerValue !== 'transparent' && HEX.test(headerValue) ? headerValue : null;
  const colourOr = (value: string | null, fallback: string | null) => (value === 'accent' ? accentColor : value && HEX.test(value) ? value : fallback);
  const postTitleColor = colourOr(newsletter.post_title_color, null) ?? contrastText(headerBackgroundColor ?? backgroundColor);
  const linkColor = newsletter.link_color === null ? contrastText(backgroundColor) : (colourOr(newsletter.link_color, accentColor) as string);
  const buttonColor = newsletter.button_color === null ? contrastText(backgroundColor) : (colourOr(newsletter.button_color, accentColor) as string);
  const weights: Record<string, string> = { normal: '400', medium: '500', semibold: '600', bold: '700' };
  const titleWeight = weights[newsletter.title_font_weight] ?? '700';
  return {
    accentColor,
    accentContrastColor: contrastText(accentColor),
    backgroundColor,
    backgroundIsDark: isWhite(contrastText(backgroundColor)),
    headerBackgroundColor,
    headerBackgroundIsDark: isWhite(contrastText(headerBackgroundColor ?? backgroundColor)),
    postTitleColor,
    sectionTitleColor: colourOr(newsletter.section_title_color, null),
    textColor: contrastText(backgroundColor),
    linkColor,
    dividerColor: colourOr(newsletter.divider_color, '#e0e7eb') as string,
    buttonColor,
    buttonTextColor: contrastText(buttonColor),
    buttonBorderRadius: newsletter.button_corners === 'square' ? '0' : newsletter.button_corners === 'pill' ? '9999px' : '6px',
    hasOutlineButtons: newsletter.button_style === 'outline',
    hasRoundedImageCorners: newsletter.image_corners === 'rounded',
    titleWeight,
    titleStrongWeight: Number(titleWeight) < 700 ? '700' : '800',
    linkStyle: newsletter.link_style || 'underline',
  };
}

/** What the cards' email renderers read (`renderOptions.design` in Ghost). */
export function cardDesign(newsletter: NewsletterRow, design: EmailDesignValues) {
  return {
    accentColor: design.accentColor,
    accentContrastColor: design.accentContrastColor,
    backgroundColor: newsletter.background_color,
    backgroundIsDark: design.backgroundIsDark,
    headerBackgroundColor: design.headerBackgroundColor,
    buttonCorners: newsletter.button_corners,
    buttonStyle: newsletter.button_style,
    titleFontWeight: newsletter.title_font_weight,
    linkStyle: newsletter.link_style,
    imageCorners: newsletter.image_corners,
    postTitleColor: design.postTitleColor,
    sectionTitleColor: newsletter.section_title_color,
    linkColor: newsletter.link_color,
    dividerColor: design.dividerColor,
    buttonColor: design.buttonColor,
    buttonTextColor: design.buttonTextColor,
  };
}

const cls = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** The classes the template's fonts and alignment hang on (serif or sans titles and body, left or centred title). */
export function designClasses(newsletter: NewsletterRow, hasExcerpt: boolean, showFeatureImage: boolean) {
  const serifTitle = newsletter.title_font_category === 'serif';
  const left = newsletter.title_alignment === 'left';
  const serifBody = newsletter.body_font_category === 'serif';
  return {
    container: cls('container', serifTitle && 'title-serif'),
    title: cls('post-title', hasExcerpt ? 'post-title-with-excerpt' : 'post-title-no-excerpt', serifTitle && 'post-title-serif', left && 'post-title-left'),
    titleLink: cls('post-title-link', left && 'post-title-link-left'),
    excerpt: cls(
      'post-excerpt',
      showFeatureImage ? 'post-excerpt-with-feature-image' : 'post-excerpt-no-feature-image',
      serifTitle && serifBody && 'post-excerpt-serif-serif',
      serifTitle && !serifBody && 'post-excerpt-serif-sans',
      left && 'post-excerpt-left',
    ),
    meta: cls('post-meta', left ? 'post-meta-left' : 'post-meta-center'),
    body: newsletter.body_font_category === 'sans_serif' ? 'post-content-sans-serif' : 'post-content',
  };
}
