/**
 * Highlights for search results, made from the stored text rather than by each engine, so they read the
 * same everywhere: HTML-escaped text with `<mark>` around the words found, case and accents ignored.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Lower-case without accents, one character for one (so offsets stay those of the original text). */
const fold = (text: string) =>
  [...text]
    .map((c) => {
      const base = c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      return base.length === 1 ? base : c.toLowerCase().length === 1 ? c.toLowerCase() : c;
    })
    .join('');

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a search query, lower-cased, at most ten, each at most 64 characters. */
export function searchWords(query: string): string[] {
  return [...new Set((query.normalize('NFKC').toLowerCase().match(WORD) ?? []).map((word) => word.slice(0, 64)))].slice(0, 10);
}

interface Span {
  start: number;
  end: number;
}

/** Where the text's words start with a searched word (whole words; the last one as a prefix too). */
function spans(text: string, words: readonly string[], prefixLast: boolean): Span[] {
  const folded = fold(text);
  const wanted = words.map((word) => fold(word));
  const found: Span[] = [];
  for (const match of folded.matchAll(WORD)) {
    const token = match[0];
    const hit = wanted.some((word, i) => token === word || (prefixLast && i === wanted.length - 1 && token.startsWith(word)));
    if (hit) found.push({ start: match.index, end: match.index + token.length });
  }
  return found;
}

function marked(text: string, found: Span[], from = 0, to = text.length): string {
  let out = '';
  let at = from;
  for (const span of found) {
    if (span.start < from || span.end > to) continue;
    out += escapeHtml(text.slice(at, span.start)) + '<mark>' + escapeHtml(text.slice(span.start, span.end)) + '</mark>';
    at = span.end;
  }
  return out + escapeHtml(text.slice(at, to));
}

/** The whole text with the words marked, or null when none occurs. */
export function highlightAll(text: string | null, words: readonly string[], prefixLast: boolean): string | null {
  if (!text) return null;
  const found = spans(text, words, prefixLast);
  return found.length ? marked(text, found) : null;
}

/** About `length` characters around the first word found, cut at word boundaries, with `…` where cut; null when none occurs. */
export function highlightExcerpt(text: string | null, words: readonly string[], prefixLast: boolean, length = 200): string | null {
  if (!text) return null;
  const found = spans(text, words, prefixLast);
  if (found.length === 0) return null;
  let from = Math.max(0, found[0]!.start - Math.floor(length / 4));
  let to = Math.min(text.length, from + length);
  if (from > 0) from = text.indexOf(' ', from) + 1 || from;
  if (to < text.length) to = text.lastIndexOf(' ', to) > from ? text.lastIndexOf(' ', to) : to;
  const snippet = marked(text, found, from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${snippet}${to < text.length ? '…' : ''}`;
}
