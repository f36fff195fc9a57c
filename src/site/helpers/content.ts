import { SafeString, createFrame, type Options } from './env.js';
import { truncate } from './excerpt.js';
import { runPartial } from './partials.js';

/** `{{content}}`: the post's html (optionally truncated); Ghost's members call to action when the visitor has no access. */
export function content(this: Record<string, unknown>, options: Options) {
  const hash = (options?.hash ?? {}) as Record<string, unknown>;
  // Ghost sets a missing html to '' and the accent colour on the post itself; here the post is shared by the
  // renders of its content version, so the call to action gets a copy with the colour (a null html prints as '').
  if (this.access !== undefined && !this.access) {
    const accentColor = (options.data.site as { accent_color?: string } | undefined)?.accent_color;
    return runPartial(options, 'content-cta', { ...this, html: this.html ?? '', accentColor }, { data: createFrame(options.data) });
  }
  const opts: { words?: number; characters?: number } = {};
  let cut = false;
  for (const key of ['words', 'characters'] as const) {
    if (key in hash) {
      cut = true;
      opts[key] = parseInt(String(hash[key]), 10);
    }
  }
  const html = String(this.html ?? '');
  return new SafeString(cut ? truncate(html, opts) : html);
}
