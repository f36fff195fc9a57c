/**
 * Reads the entries of a tar archive (what `npm pack` makes: ustar headers, with pax or GNU long-name records
 * for long paths). Only what an npm tarball holds is understood: files and folders; links and devices are
 * reported as `other` for the caller to skip. The archive is in memory (the `ghost` tarball unpacks to ~60 MB,
 * once, at install).
 */
export interface TarEntry {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'other';
  readonly body: Buffer;
}

const BLOCK = 512;

export function* tarEntries(archive: Buffer): Generator<TarEntry> {
  let offset = 0;
  let nextPath: string | null = null;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return;
    const size = octal(header.subarray(124, 136));
    const flag = String.fromCharCode(header[156]!);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new Error('tar: archive ends inside an entry');
    const body = archive.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === 'x') {
      nextPath = paxPath(body) ?? nextPath;
      continue;
    }
    if (flag === 'L') {
      nextPath = text(body);
      continue;
    }
    if (flag === 'g') continue;
    const ustar = text(header.subarray(257, 263)) === 'ustar';
    const prefix = ustar ? text(header.subarray(345, 500)) : '';
    const name = text(header.subarray(0, 100));
    const path = nextPath ?? (prefix ? `${prefix}/${name}` : name);
    nextPath = null;
    const type = flag === '0' || flag === '\0' || flag === '7' ? 'file' : flag === '5' ? 'directory' : 'other';
    yield { path, type, body };
  }
}

function text(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8');
}

function octal(bytes: Buffer): number {
  if (bytes[0]! & 0x80) throw new Error('tar: base-256 sizes are not supported');
  const digits = text(bytes).trim();
  if (!/^[0-7]*$/.test(digits)) throw new Error(`tar: bad size field "${digits}"`);
  return digits ? parseInt(digits, 8) : 0;
}

/** A pax header's `path` record (`<length> path=<value>\n`), if it has one. */
function paxPath(body: Buffer): string | null {
  let offset = 0;
  let found: string | null = null;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(body.subarray(offset, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = body.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (record.slice(0, equals) === 'path') found = record.slice(equals + 1);
    offset += length;
  }
  return found;
}
