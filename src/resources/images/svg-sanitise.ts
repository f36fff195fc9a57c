import type { DOMPurify } from 'dompurify';

let purifier: Promise<DOMPurify> | undefined;

// One window for the process, made on the first SVG: building a jsdom window costs tens of milliseconds and
// loading jsdom much more.
async function makePurifier(): Promise<DOMPurify> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  return createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
}

/**
 * An uploaded SVG as Ghost keeps it: DOMPurify with its svg and svgFilters profiles (scripts, event handlers
 * and foreign content removed). Null when nothing of an `<svg>` image is left, which Ghost refuses.
 */
export async function sanitiseSvg(source: string): Promise<string | null> {
  purifier ??= makePurifier();
  const clean = (await purifier).sanitize(source, { USE_PROFILES: { svg: true, svgFilters: true } });
  // Ghost's test (an <svg> element with something inside it survived), without its backtracking regex.
  const start = /<svg[^>]*>/.exec(clean);
  if (!start) return null;
  const inside = clean.slice(start.index + start[0].length, clean.lastIndexOf('</svg>'));
  return clean.lastIndexOf('</svg>') > start.index && inside.trim() !== '' ? clean : null;
}
