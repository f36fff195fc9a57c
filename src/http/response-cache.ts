/** One kept answer: its bytes, the headers its route set, its entity tag and the content version it was computed at. */
export interface CachedAnswer {
  readonly version: number;
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string | string[]>>;
}

/** Map keys, header names and values, and the entry's bookkeeping, beside the body. */
const ENTRY_OVERHEAD = 200;

/**
 * Answers kept in memory, at most `maxBytes` of them (bodies, keys and headers counted), the least recently
 * used dropped first. A Map keeps insertion order, so moving a used entry to the end keeps it in use order.
 */
export class ResponseCache {
  #entries = new Map<string, { answer: CachedAnswer; bytes: number }>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.answer;
  }

  /** Keeps `answer` unless it alone is larger than the bound; older entries make room. */
  set(key: string, answer: CachedAnswer): void {
    this.delete(key);
    const bytes = answer.body.length + key.length + answer.etag.length + headerBytes(answer.headers) + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes + bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
    this.#entries.set(key, { answer, bytes });
    this.#bytes += bytes;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

function headerBytes(headers: Readonly<Record<string, string | string[]>>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(headers)) bytes += name.length + (Array.isArray(value) ? value.join('').length : value.length);
  return bytes;
}
