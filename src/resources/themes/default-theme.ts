/**
 * The theme a new site starts with, shipped in the code rather than in storage: every instance has it, it
 * cannot be deleted or overwritten, and nothing has to be copied on first start. It is small on purpose:
 * Quire does not render the public site yet; themes are stored, listed, activated and downloaded for
 * clients that manage them.
 */
export const DEFAULT_THEME_NAME = 'quire';

/** Names no upload may take and no one may delete: Quire's own theme (Ghost's casper and source may be uploaded). */
export const RESERVED_THEME_NAMES: readonly string[] = [DEFAULT_THEME_NAME];

const packageJson = {
  name: 'quire',
  description: 'The default theme of a Quire site',
  version: '1.0.0',
  engines: { ghost: '>=5.0.0' },
  license: 'MIT',
  author: { name: 'Quire', email: 'theme@quire.invalid' },
  keywords: ['ghost-theme'],
  config: {
    posts_per_page: 10,
    image_sizes: { s: { width: 300 }, m: { width: 600 }, l: { width: 1000 }, xl: { width: 2000 } },
    card_assets: true,
  },
};

export const DEFAULT_THEME_FILES: ReadonlyMap<string, string> = new Map([
  ['package.json', `${JSON.stringify(packageJson, null, 2)}\n`],
  [
    'default.hbs',
    `<!DOCTYPE html>
<html lang="{{@site.locale}}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{meta_title}}</title>
  <link rel="stylesheet" href="{{asset "css/screen.css"}}">
  {{ghost_head}}
</head>
<body class="{{body_class}}">
  <header class="site-header"><a href="{{@site.url}}">{{@site.title}}</a></header>
  <main class="site-main">{{{body}}}</main>
  {{ghost_foot}}
</body>
</html>
`,
  ],
  [
    'index.hbs',
    `{{!< default}}
{{#foreach posts}}
  <article class="{{post_class}}"><h2><a href="{{url}}">{{title}}</a></h2><p>{{excerpt}}</p></article>
{{/foreach}}
{{pagination}}
`,
  ],
  [
    'post.hbs',
    `{{!< default}}
{{#post}}
  <article class="{{post_class}}">
    <h1>{{title}}</h1>
    {{#if feature_image}}<img src="{{img_url feature_image size="l"}}" alt="{{feature_image_alt}}">{{/if}}
    <div class="gh-content">{{content}}</div>
  </article>
{{/post}}
`,
  ],
  [
    'assets/css/screen.css',
    `body { margin: 0 auto; max-width: 720px; padding: 0 1rem; font: 18px/1.6 system-ui, sans-serif; }
.kg-width-wide { margin-left: -10vw; margin-right: -10vw; }
.kg-width-full { margin-left: calc(50% - 50vw); margin-right: calc(50% - 50vw); }
img { max-width: 100%; height: auto; }
`,
  ],
]);
