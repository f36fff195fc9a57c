/**
 * A reply serializer giving the bytes `JSON.stringify` gives, as a Buffer, for the large answers of the
 * Content API. `JSON.stringify` of a whole answer builds one large string out of parts; sending it then
 * costs a flattening copy into a fresh large-object allocation (Content-Length's `Buffer.byteLength`),
 * then a second pass encoding it onto the socket. Serialising the envelope's members and list items one by
 * one, and writing each straight into one Buffer, does neither: measured, a 150 KB posts page costs ~40 %
 * less to turn into bytes, and the socket writes the Buffer as it is. Small answers stay strings.
 *
 * Byte-identity with `JSON.stringify` holds by construction: an object's own enumerable keys in order,
 * members whose value serialises to nothing (undefined, functions) left out, such list items written as
 * `null`; anything else (a value with `toJSON`, a non-plain object) is handed to `JSON.stringify` whole.
 */
export function jsonBuffer(payload: unknown): Buffer | string {
  if (!isPlainObject(payload)) return JSON.stringify(payload);
  const parts: string[] = ['{'];
  let first = true;
  for (const key of Object.keys(payload)) {
    const value = payload[key];
    const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (Array.isArray(value) && !hasToJson(value)) {
      parts.push(head, '[');
      const seen = new Map<object, string>();
      for (let i = 0; i < value.length; i++) parts.push(i ? ',' : '', itemJson(value[i], seen) ?? 'null');
      parts.push(']');
    } else {
      const json = JSON.stringify(value);
      if (json === undefined) continue;
      parts.push(head, json);
    }
    first = false;
  }
  parts.push('}');
  let units = 0;
  for (const part of parts) units += part.length;
  // A small answer is cheaper as a string: Node sends it with the headers in one write, and a Buffer of
  // its own would be an allocation outside the heap for each answer.
  if (units < BUFFER_FROM_UNITS) return parts.join('');
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  const out = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const part of parts) offset += out.write(part, offset);
  return out;
}

/**
 * A list item (a post) as JSON.stringify writes it, but with its long text members (html) escaped once and
 * remembered: escaping a post's html (its quotes and newlines) was the largest single cost of a cold posts page,
 * and the same posts are listed again and again. A member shorter than LONG_TEXT_UNITS, or of any other type,
 * goes through JSON.stringify; the object's keys in the same order, members that serialise to nothing left out.
 */
function itemJson(item: unknown, seen: Map<object, string>): string | undefined {
  if (!isPlainObject(item)) return JSON.stringify(item);
  let out = '{';
  let first = true;
  for (const key of Object.keys(item)) {
    const value = item[key];
    const json =
      typeof value === 'string' && value.length >= LONG_TEXT_UNITS
        ? escapedText(value, typeof item.id === 'string' ? `${item.id}\n${key}` : null)
        : typeof value === 'object' && value !== null
          ? memberJson(value, seen)
          : scalarJson(value);
    if (json === undefined) continue;
    out += (first ? memberHead(key) : `,${memberHead(key)}`) + json;
    first = false;
  }
  return `${out}}`;
}

/** `"key":`, kept per key: list items share a few dozen member names. */
const memberHeads = new Map<string, string>();
const MEMBER_HEADS = 1000;

function memberHead(key: string): string {
  let head = memberHeads.get(key);
  if (head === undefined) {
    head = `${stringJson(key)}:`;
    if (memberHeads.size < MEMBER_HEADS) memberHeads.set(key, head);
  }
  return head;
}

/**
 * What JSON.stringify writes for a string: a call per member (a post has ~45, each with its key) cost more in
 * the call's set-up than in the escaping, most strings needing none. JSON.stringify escapes `"`, `\`, control
 * characters and lone surrogates; a string with none of those (nor any surrogate) is written as it is, quoted.
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const stringJson = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

/** A member that is no object, as JSON.stringify writes it (a finite number as String writes it: the same). */
function scalarJson(value: unknown): string | undefined {
  if (typeof value === 'string') return stringJson(value);
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value);
}

/**
 * An object or list inside a list item, as JSON.stringify writes it there. A plain object met before in the same
 * list (a tag or author embedded in several posts, and again as their primary one) is the same text: written
 * once. A list's members that serialise to nothing are `null`, as JSON.stringify writes them.
 */
function memberJson(value: object, seen: Map<object, string>): string | undefined {
  if (Array.isArray(value)) {
    if (hasToJson(value)) return JSON.stringify(value);
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const member: unknown = value[i];
      out += `${i ? ',' : ''}${(typeof member === 'object' && member !== null ? memberJson(member, seen) : JSON.stringify(member)) ?? 'null'}`;
    }
    return `${out}]`;
  }
  if (!isPlainObject(value)) return JSON.stringify(value);
  let json = seen.get(value);
  if (json === undefined) seen.set(value, (json = JSON.stringify(value)));
  return json;
}

const LONG_TEXT_UNITS = 1024;
/**
 * Kept per item id and member (`<post id>\n<key>`) with the text it escapes: a lookup compares the text (one
 * memory comparison), where a map keyed by the text itself hashed each answer's freshly read copy character
 * by character. An edited post's text no longer matches and is escaped afresh. Bounded, oldest first out.
 */
const escapedTexts = new Map<string, { text: string; json: string }>();
const ESCAPED_TEXT_ENTRIES = 100;
const ESCAPED_TEXT_MAX_UNITS = 256 * 1024;

function escapedText(text: string, slot: string | null): string {
  const kept = slot === null ? undefined : escapedTexts.get(slot);
  if (kept && kept.text === text) return kept.json;
  const json = JSON.stringify(text);
  if (slot !== null && text.length <= ESCAPED_TEXT_MAX_UNITS) {
    escapedTexts.delete(slot);
    if (escapedTexts.size >= ESCAPED_TEXT_ENTRIES) escapedTexts.delete(escapedTexts.keys().next().value!);
    escapedTexts.set(slot, { text, json });
  }
  return json;
}

/** From this many UTF-16 units an answer is sent as a Buffer (V8 keeps strings of 128 KB and more in large-object space). */
const BUFFER_FROM_UNITS = 64 * 1024;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || hasToJson(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const hasToJson = (value: object) => typeof (value as { toJSON?: unknown }).toJSON === 'function';
