/**
 * One pass of `@tryghost/url-utils` 4.4.14's lexical transform (`lib/utils/lexical-transform.js`) over a document
 * already parsed, changing it in place. The library takes JSON text, parses it, walks it and writes it out again;
 * `lexicalToTransformReady` does that twice (relative → absolute, then absolute → transform-ready), so a 12 MB
 * post's 35 MB of lexical was parsed and written twice more after the converter had written it and the renderer
 * parsed it (issue 29: most of a large save's garbage-collection time on the content thread). Here the walk is the
 * library's, step for step (which nodes count as cards, the order of the properties, arrays of items, a truthy
 * `url` on any other node), on the object the caller already holds.
 */

/** A card's property → its kind of URL transform (`url`, `html`, `markdown`), or, for an array, its items' map. */
export type UrlTransformMap = Record<string, unknown>;

export interface LexicalUrlPass {
  /** Node type → its class's `urlTransformMap`, for the nodes that declare one (Ghost's default nodes). */
  cards: Map<string, UrlTransformMap>;
  /** The card property transforms of this pass, by kind (the `transformMap[transformType]` Ghost's lexical lib gives). */
  byKind: Record<string, (value: unknown) => unknown>;
  /** A link's (any non-card node's truthy `url`) transform. */
  link: (url: unknown) => unknown;
}

type Json = Record<string, unknown>;

/**
 * Applies `pass` to `document` in place, as url-utils does to its parse of the text; true when any value was
 * replaced by a different one. A document without `root.children` is left alone, as the library returns its
 * input then.
 */
export function transformLexicalInPlace(document: unknown, pass: LexicalUrlPass): boolean {
  const children = (document as { root?: { children?: unknown } } | null)?.root?.children;
  if (!children) return false;
  let changed = false;

  const transformProperty = (owner: unknown, path: string, transform: unknown) => {
    const value = getPath(owner, path);
    if (Array.isArray(value)) {
      // An array's items are objects whose own properties the nested map names (Object.entries, as the library:
      // a string map over an array throws there and here alike).
      for (const item of value) {
        for (const [itemPath, itemTransform] of Object.entries(transform as object)) transformProperty(item, itemPath, itemTransform);
      }
      return;
    }
    if (value) {
      const next = pass.byKind[transform as string]!(value);
      if (next !== value) changed = true;
      setPath(owner as Json, path, next);
    }
  };

  const walk = (nodes: Iterable<Json>) => {
    for (const node of nodes) {
      const card = node.type ? pass.cards.get(node.type as string) : undefined;
      if (card) {
        for (const [path, transform] of Object.entries(card)) transformProperty(node, path, transform);
      } else if (node.url) {
        const next = pass.link(node.url);
        if (next !== node.url) changed = true;
        node.url = next;
      }
      if (node.children) walk(node.children as Iterable<Json>);
    }
  };

  walk(children as Iterable<Json>);
  return changed;
}

/**
 * lodash's `_.get` for the paths node classes declare (`src`, `metadata.icon`): a key the object has as written is
 * taken whole, otherwise the path is read a dot-separated key at a time.
 */
function getPath(owner: unknown, path: string): unknown {
  if (owner === null || owner === undefined) return undefined;
  if (path in Object(owner)) return (owner as Json)[path];
  let value: unknown = owner;
  for (const key of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = (value as Json)[key];
  }
  return value;
}

/** lodash's `_.set` for a path getPath has just read a truthy value at (so every step of it exists). */
function setPath(owner: Json, path: string, value: unknown): void {
  if (path in owner) {
    owner[path] = value;
    return;
  }
  const keys = path.split('.');
  let target = owner;
  for (const key of keys.slice(0, -1)) target = target[key] as Json;
  target[keys[keys.length - 1]!] = value;
}
