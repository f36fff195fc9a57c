import { contentType, lookup } from 'mime-types';

/** The media type a file is served with, from its key's extension (`application/octet-stream` when unknown). */
export function contentTypeOf(key: string): string {
  const type = lookup(key);
  return (type && contentType(type)) || 'application/octet-stream';
}
