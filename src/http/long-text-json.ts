import { randomBytes } from 'node:crypto';

/**
 * A reply serializer for answers that may hold a very long string (a 12 MB post's lexical in the answer to its
 * save), giving the bytes `JSON.stringify` gives. `JSON.stringify` escapes such a string whole (17 MB for 14 MB of
 * lexical), builds the answer from parts that `Content-Length` then flattens into another copy, and the socket
 * encodes that into a third: ~+67 MB at the end of a large save (issue 29). Here every string of LONG_TEXT_UNITS
 * or more is left out of the `JSON.stringify` pass and written into the answer's one Buffer a slice at a time,
 * escaped twice (once to count its bytes, once to write them): one copy of the answer and a slice. Answers without
 * such a string are `JSON.stringify`'s string, as Fastify's own serializer gives them.
 */

/** From this many UTF-16 units a string is written a slice at a time. */
const LONG_TEXT_UNITS = 1024 * 1024;
const SLICE_UNITS = 256 * 1024;

/** Stands in for the n-th long string in the first pass; the nonce keeps any real text from matching it. */
const NONCE = randomBytes(12).toString('hex');
const placeholder = (n: number) => `\u0001quire-long-text-${n}-${NONCE}`;
const PLACEHOLDER_JSON = new RegExp(`"\\\\u0001quire-long-text-(\\d+)-${NONCE}"`, 'g');

/** The slices of `text` escaped as JSON.stringify escapes it whole: never cut between the two halves of a pair. */
function* escapedSlices(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + SLICE_UNITS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
}

/** Whether `value` holds a string of LONG_TEXT_UNITS or more (a replacer would slow every small answer's JSON.stringify). */
function holdsLongText(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= LONG_TEXT_UNITS;
  if (typeof value !== 'object' || value === null) return false;
  for (const member of Array.isArray(value) ? value : Object.values(value)) if (holdsLongText(member)) return true;
  return false;
}

export function longTextJson(payload: unknown): string | Buffer {
  if (!holdsLongText(payload)) return JSON.stringify(payload);
  const long: string[] = [];
  const json = JSON.stringify(payload, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_TEXT_UNITS) return value;
    long.push(value);
    return placeholder(long.length - 1);
  });
  if (long.length === 0) return json;
  // The first pass's text around the long strings, then each long string's bytes with its quotes.
  const pieces = json.split(PLACEHOLDER_JSON);
  let bytes = 0;
  for (let i = 0; i < pieces.length; i += 2) bytes += Buffer.byteLength(pieces[i]!);
  for (const text of long) {
    bytes += 2;
    for (const slice of escapedSlices(text)) bytes += Buffer.byteLength(slice);
  }
  const out = Buffer.allocUnsafe(bytes);
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 0) {
      offset += out.write(pieces[i]!, offset);
      continue;
    }
    offset += out.write('"', offset);
    for (const slice of escapedSlices(long[Number(pieces[i])]!)) offset += out.write(slice, offset);
    offset += out.write('"', offset);
  }
  return out;
}
