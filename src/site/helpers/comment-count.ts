import { SafeString, escape, type Options } from './env.js';

export function comment_count(this: Record<string, unknown>, options: Options) {
  const hash = options.hash as Record<string, unknown>;
  const autowrap = hash.autowrap !== 'false';
  const tag = autowrap ? String(hash.autowrap || 'span') : 'script';
  const attr = (value: unknown) => (value === undefined ? '' : escape(String(value)));
  return new SafeString(
    `<script\n    data-ghost-comment-count="${attr(this.id)}"\n    data-ghost-comment-count-empty="${attr(hash.empty ?? '')}"\n    data-ghost-comment-count-singular="${attr(hash.singular ?? 'comment')}"\n    data-ghost-comment-count-plural="${attr(hash.plural ?? 'comments')}"\n    data-ghost-comment-count-tag="${tag}"\n    data-ghost-comment-count-class-name="${attr(hash.class)}"\n    data-ghost-comment-count-autowrap="${autowrap ? 'true' : 'false'}"\n>\n</script>`,
  );
}
