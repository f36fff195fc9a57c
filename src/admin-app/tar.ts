import { Parser, type ReadEntry } from 'tar';

/**
 * The entries of a tar archive (what `npm pack` makes), read with node-tar's parser in memory: the `ghost`
 * tarball unpacks to ~60 MB, once, at install. Files and folders are told apart; links and devices are
 * `other`, for the caller to refuse.
 */
export interface TarEntry {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'other';
  readonly body: Buffer;
}

export function tarEntries(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let failure: Error | null = null;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => entries.push({ path: entry.path, type: kindOf(entry.type), body: Buffer.concat(chunks) }));
    },
  });
  parser.on('error', (err: Error) => (failure ??= err));
  parser.on('warn', (_code: string, message: string | Error) => (failure ??= message instanceof Error ? message : new Error(`tar: ${message}`)));
  // The parser works synchronously on a whole buffer (as node-tar's own synchronous listing does).
  parser.end(archive);
  if (failure) throw failure;
  return entries;
}

function kindOf(type: ReadEntry['type']): TarEntry['type'] {
  if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile') return 'file';
  return type === 'Directory' ? 'directory' : 'other';
}
