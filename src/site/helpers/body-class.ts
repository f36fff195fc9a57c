import { generateCustomFontBodyClass } from '@tryghost/custom-fonts';
import { SafeString, envOf, type Options } from './env.js';
import { customFonts } from './custom-fonts.js';

type Entity = { slug?: string; tags?: { slug: string }[] } | undefined;

export function body_class(this: Record<string, unknown>, options: Options) {
  const context = envOf(options).context;
  const obj = (this.post ?? this.page) as Entity;
  const isPage = Boolean(this.page);
  const classes: string[] = [];
  if (context.includes('home')) classes.push('home-template');
  else if (context.includes('post') && obj && !isPage) classes.push('post-template');
  else if (context.includes('page') && obj && isPage) classes.push('page-template', `page-${obj.slug}`);
  else if (context.includes('tag') && this.tag) classes.push('tag-template', `tag-${(this.tag as { slug: string }).slug}`);
  else if (context.includes('author') && this.author) classes.push('author-template', `author-${(this.author as { slug: string }).slug}`);
  else if (context.includes('private')) classes.push('private-template');
  for (const tag of obj?.tags ?? []) classes.push(`tag-${tag.slug}`);
  if (context.includes('paged')) classes.push('paged');
  const fonts = customFonts(options);
  if (fonts) classes.push(generateCustomFontBodyClass(fonts));
  return new SafeString(classes.join(' ').trim());
}
