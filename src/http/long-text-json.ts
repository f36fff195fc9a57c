import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * The answer to a save, which may hold a very long string (a 12 MB post's lexical): its bytes as `JSON.stringify`
 * gives them, as a stream. `JSON.stringify` escapes such a string whole (40 MB for a 12 MB mixed post's 34 MB of
 * lexical), builds the answer from parts that `Content-Length` then flattens into another copy, and the socket
 * encodes that into a third (issue 29). Here every string of LONG_TEXT_UNITS or more is left out of the
 * `JSON.stringify` pass and escaped a slice at a time as the socket takes the answer: no copy of the answer is
 * ever whole, and each slice is escaped once. Such an answer goes out chunked, without `Content-Length`.
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

/** The answer as a stream when it holds a string of LONG_TEXT_UNITS or more; null: JSON.stringify's text will do. */
export function longTextJson(payload: unknown): Readable | null {
  if (!holdsLongText(payload)) return null;
  const long: string[] = [];
  const json = JSON.stringify(payload, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_TEXT_UNITS) return value;
    long.push(value);
    return placeholder(long.length - 1);
  });
  if (long.length === 0) return null;
  return Readable.from(answerSlices(json.split(PLACEHOLDER_JSON), long), { objectMode: false });
}

/** The first pass's text around the long strings (`pieces`, a long string's index between each two), each long string escaped. */
function* answerSlices(pieces: string[], long: string[]): Generator<string> {
  let before = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) {
    yield `${before}"`;
    yield* escapedSlices(long[Number(pieces[i])]!);
    before = `"${pieces[i + 1]!}`;
  }
  yield before;
}
