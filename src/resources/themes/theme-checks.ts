/** One finding, in the shape of Ghost's theme checker (gscan) results. */
export interface ThemeProblem {
  fatal: boolean;
  level: 'error' | 'warning';
  rule: string;
  details: string;
  path?: string;
  failures: { ref: string }[];
  code: string;
}

export interface ThemeProblems {
  fatal: boolean;
  errors: ThemeProblem[];
  warnings: ThemeProblem[];
}

const DOCS = 'https://ghost.org/docs/themes/';
const PACKAGE_DOCS = `Check the <a href="${DOCS}structure/#packagejson" target=_blank><code>package.json</code> documentation</a>`;

// Ghost's texts (gscan 4.49 v5 rules), kept byte for byte, including their own slips.
const RULES = {
  'GS020-INDEX-REQ': {
    fatal: true,
    rule: 'A template file called <code>index.hbs</code> must be present',
    details: `Your theme must have a template file called <code>index.hbs</code>.<br>Read <a href="${DOCS}contexts/" target=_blank>here</a> more about the required template structure and <code>index.hbs</code> in <a href="${DOCS}contexts/index-context/" target=_blank>particular</a>.`,
    path: 'index.hbs',
  },
  'GS020-POST-REQ': {
    fatal: true,
    rule: 'A template file called <code>post.hbs</code> must be present',
    details: `Your theme must have a template file called <code>index.hbs</code>.<br>Read <a href="${DOCS}structure/#templates" target=_blank>here</a> more about the required template structure and <code>post.hbs</code> in <a href="${DOCS}structure/#posthbs" target=_blank>particular</a>.`,
    path: 'post.hbs',
  },
  'GS010-PJ-REQ': {
    fatal: false,
    rule: '<code>package.json</code> file should be present',
    details: `You should provide a <code>package.json</code> file for your theme.<br>${PACKAGE_DOCS} to see which properties are required and which are recommended.`,
  },
  'GS010-PJ-NAME-REQ': {
    fatal: false,
    rule: '<code>package.json</code> property <code>"name"</code> is required',
    details: `Please add the property <code>"name"</code> to your <code>package.json</code>. E.g. <code>{"name": "my-theme"}</code>.<br>${PACKAGE_DOCS} to see which properties are required and which are recommended.`,
  },
  'GS010-PJ-VERSION-REQ': {
    fatal: false,
    rule: '<code>package.json</code> property <code>"version"</code> is required',
    details: `Please add the property <code>"version"</code> to your <code>package.json</code>. E.g. <code>{"version": "1.0.0"}</code>.<br>${PACKAGE_DOCS} to see which properties are required and which are recommended.`,
  },
} as const;

function problem(code: keyof typeof RULES, ref: string): ThemeProblem {
  const { fatal, rule, details, ...rest } = RULES[code];
  return { fatal, level: 'error', rule, details, ...rest, failures: [{ ref }], code };
}

/**
 * Ghost's fatal theme rules on structure (an `index.hbs` and a `post.hbs`) and its package.json rules. The
 * rest of gscan (templates, helpers, CSS classes) is not run: Quire does not render themes yet.
 */
export function themeProblems(theme: { files: readonly string[]; package: Record<string, unknown> | false }): ThemeProblems {
  const errors: ThemeProblem[] = [];
  if (!theme.files.includes('index.hbs')) errors.push(problem('GS020-INDEX-REQ', 'index.hbs'));
  if (!theme.files.includes('post.hbs')) errors.push(problem('GS020-POST-REQ', 'post.hbs'));
  if (!theme.files.includes('package.json')) errors.push(problem('GS010-PJ-REQ', 'package.json'));
  else if (theme.package) {
    if (typeof theme.package.name !== 'string' || !theme.package.name) errors.push(problem('GS010-PJ-NAME-REQ', 'package.json'));
    if (typeof theme.package.version !== 'string' || !theme.package.version) errors.push(problem('GS010-PJ-VERSION-REQ', 'package.json'));
  }
  return { fatal: errors.some((e) => e.fatal), errors, warnings: [] };
}

/** Ghost's custom templates of a theme (`custom-*.hbs`, `post-*.hbs`, `page-*.hbs` at its top level). */
export function customTemplates(files: readonly string[]) {
  return files
    .filter((file) => /^(post-|page-|custom-)[^/]*\.hbs$/.test(file))
    .map((file) => {
      const template = file.replace(/\.hbs$/, '');
      const name = template
        .replace(/^(post-|page-|custom-)/, '')
        .replace(/-/g, ' ')
        .replace(/\b\w/g, (letter) => letter.toUpperCase())
        .trim();
      return {
        filename: template,
        name,
        for: template.startsWith('page-') ? ['page'] : template.startsWith('post-') ? ['post'] : ['page', 'post'],
        slug: template.startsWith('custom-') ? null : template.replace(/^(page-|post-)/, ''),
      };
    });
}
