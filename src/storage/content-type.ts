import { createRequire } from 'node:module';
import type MimeTypes from 'mime-types';

const require = createRequire(import.meta.url);
let loaded: typeof MimeTypes | undefined;

/**
 * mime-types, required on first use rather than bundled into the server's start: its database of ~2,500 types is
 * ~0.5 MB of heap for the process's whole life, and only uploads and served files need it (never an API read).
 */
export const mimeTypes = (): typeof MimeTypes => (loaded ??= require('mime-types') as typeof MimeTypes);

/** The media type a file is served with, from its key's extension (`application/octet-stream` when unknown). */
export function contentTypeOf(key: string): string {
  const mime = mimeTypes();
  const type = mime.lookup(key);
  return (type && mime.contentType(type)) || 'application/octet-stream';
}
