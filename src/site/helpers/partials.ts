import Handlebars from 'handlebars';
import { GhostError } from '../../errors.js';
import { SafeString, type Options } from './env.js';

/**
 * The templates some helpers print through (`{{navigation}}`, `{{pagination}}`, the members call to
 * action): registered as partials before the theme's own, so a theme's `partials/navigation.hbs` replaces
 * ours, as in Ghost. The markup is Ghost's, so themes style it unchanged.
 */
export const HELPER_PARTIALS: ReadonlyMap<string, string> = new Map([
  [
    'navigation',
    '<ul class="nav">\n    {{#foreach navigation}}\n    <li class="{{link_class for=(url) class=(concat "nav-" slug)}}"><a href="{{url absolute="true"}}">{{label}}</a></li>\n    {{/foreach}}\n</ul>\n',
  ],
  [
    'pagination',
    '<nav class="pagination">\n    {{#if prev}}\n        <a class="newer-posts" href="{{page_url prev}}"><span aria-hidden="true">&larr;</span> Newer Posts</a>\n    {{/if}}\n    <span class="page-number">Page {{page}} of {{pages}}</span>\n    {{#if next}}\n        <a class="older-posts" href="{{page_url next}}">Older Posts <span aria-hidden="true">&rarr;</span></a>\n    {{/if}}\n</nav>\n',
  ],
  [
    'content-cta',
    '<aside class="gh-post-upgrade-cta">\n    <div class="gh-post-upgrade-cta-content" style="background-color: {{accentColor}}">\n        <h2>This post is for subscribers only</h2>\n        {{#unless @member}}\n        <a class="gh-btn" data-portal="signup" style="color:{{accentColor}}">Subscribe now</a>\n        <p><small>Already have an account? <a data-portal="signin">Sign in</a></small></p>\n        {{/unless}}\n    </div>\n</aside>\n',
  ],
]);

/** Runs a registered partial (the theme's or ours) by name, as Ghost's `templates.execute`. */
export function runPartial(options: Options, name: string, context: unknown, runtime: { data: unknown }): Handlebars.SafeString {
  const partials = (options.data.root._partials as Record<string, Handlebars.TemplateDelegate> | undefined) ?? {};
  const partial = partials[name];
  if (!partial) throw new GhostError('IncorrectUsageError', { message: `Template ${name} not found.` });
  return new SafeString(partial(context, runtime as Handlebars.RuntimeOptions));
}
