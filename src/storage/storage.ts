import type { Readable } from 'node:stream';

/**
 * Where files live: local disk under `CONTENT_DIR` or S3-compatible object storage, behind this one port. Keys are relative paths with `/` separators (`images/2026/01/photo.jpg`,
 * `data/site.ghost.2026-01-02-03-04-05.json`); the same key means the same file on every adapter.
 */
export interface Storage {
  /**
   * Stores `data` under `key`, replacing what was there. Readers see the old file or the whole new one,
   * never a part. A stream is written as it arrives, never held whole in memory.
   */
  write(key: string, data: Buffer | string | Readable, options?: WriteOptions): Promise<void>;
  /** The file's bytes as a stream; rejects with `MissingFileError` when there is none. */
  read(key: string): Promise<Readable>;
  /**
   * The bytes of `range` (inclusive offsets, already checked against the size by the caller) or of the whole
   * file, with its stat. Rejects with `MissingFileError` when there is none.
   */
  open(key: string, range?: ByteRange): Promise<OpenedFile>;
  /** Size, modification time and entity tag, or null when there is no file. */
  stat(key: string): Promise<FileStat | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/` (a folder and all below it). */
  deleteAll(prefix: string): Promise<void>;
  /** The keys below `prefix/`, in no promised order. */
  list(prefix: string): Promise<string[]>;
  /** Where the public fetches a file that is not private. */
  url(key: string): string;
}

export interface FileStat {
  size: number;
  modified: Date;
  /** A validator for conditional requests, quoted; it changes whenever the bytes do. */
  etag: string;
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface OpenedFile extends FileStat {
  body: Readable;
}

export interface WriteOptions {
  /**
   * Never for the public: backups and other files holding personal data. The local adapter makes the
   * file readable by the service's user only; an object-storage adapter must not make it publicly readable.
   */
  private?: boolean;
}

export class MissingFileError extends Error {
  override name = 'MissingFileError';
  constructor(readonly key: string) {
    super(`no file at storage key "${key}"`);
  }
}

export class BadKeyError extends Error {
  override name = 'BadKeyError';
}

/**
 * Refuses a key that could leave the storage root or mean two things: absolute, `..` or `.` segments,
 * empty segments, backslashes (a separator on Windows) and control characters. Keys are refused, never
 * repaired, so a key names one file on every adapter.
 */
export function checkKey(key: string): string {
  const segments = key.split('/');
  const bad =
    key === '' ||
    key.startsWith('/') ||
    /[\\\0-\x1f\x7f]/.test(key) ||
    /^[a-z]:/i.test(key) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new BadKeyError(`storage key refused: ${JSON.stringify(key)} (a relative path with / separators, no "..", "." or empty parts)`);
  return key;
}
