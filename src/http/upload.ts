import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { errors } from '../errors.js';

/** One received file, on local disk in a temporary folder until the request ends. */
export interface UploadedFile {
  /** Where the bytes are now. */
  path: string;
  /** The name the client gave, without any folder part. */
  name: string;
  /** The part's declared content type, lower-cased. */
  type: string;
  size: number;
}

export interface Upload {
  files: Partial<Record<string, UploadedFile>>;
  /** Each text field's last value. */
  fields: Partial<Record<string, string>>;
  /** Every text field in the order sent, repeated names included (`labels`, `mapping[Email]`). */
  entries: [name: string, value: string][];
}

/**
 * A temporary folder for one request's or job's files (0700, in the system's temporary folder), named with
 * this process's id so that `sweepTemporaryFolders` can tell the leftovers of a process that died (a crash,
 * SIGKILL, a lost container) from the folders of another instance running on the same machine.
 */
export const temporaryFolder = (kind: 'upload' | 'import') => mkdtemp(path.join(tmpdir(), `quire-${kind}-${process.pid}-`));

const TEMPORARY = /^quire-(?:upload|import)-(?:(\d+)-)?/;
/** Leftovers older than this go whatever their process id says (ids are reused). */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // our id, before we made any: a previous process's (a restarted container)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary folders of processes that ended without removing them (uploads in flight when the
 * process was killed: member CSVs full of e-mail addresses, export files). Run once at start; returns how many.
 */
export async function sweepTemporaryFolders(folder = tmpdir(), now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const match = TEMPORARY.exec(name);
    if (!match) continue;
    const full = path.join(folder, name);
    const info = await stat(full).catch(() => null);
    if (!info?.isDirectory()) continue;
    const pid = match[1] ? Number(match[1]) : null;
    if (pid !== null && alive(pid) && now - info.mtimeMs < STALE_AFTER_MS) continue;
    if (pid === null && now - info.mtimeMs < STALE_AFTER_MS) continue;
    await rm(full, { recursive: true, force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

const SERVER_FAULT_CODES = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EIO', 'EMFILE', 'ENFILE', 'EROFS', 'ENOMEM']);
const SERVER_FAULT_MESSAGES =
  /No space left on device|Disk quota exceeded|Permission denied|Input\/output error|Read-only file system|Too many open files|Cannot allocate memory/i;

/**
 * Whether a failure while handling an upload is the server's (its disk full, a folder it may not write) rather
 * than the file's: those are answered as an opaque 500 and logged, never blamed on the client with a path.
 */
export function isServerFault(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && SERVER_FAULT_CODES.has(code)) || (typeof message === 'string' && SERVER_FAULT_MESSAGES.test(message));
}

/** Multipart bodies for the upload routes; `maxBytes` bounds each file while it streams in. */
export async function registerMultipart(app: FastifyInstance, maxBytes: number) {
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 4, fields: 20, fieldSize: 64 * 1024, parts: 24, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
}

/**
 * Streams the request's multipart body: each file part named in `fileFields` to a temporary file (never held in
 * memory), the other fields as text, then runs `use` on them. A file part under another name is refused as
 * multer's `single('file')` refuses it. The temporary files are removed when `use` ends, however it ends.
 */
export async function withUpload<T>(request: FastifyRequest, fileFields: readonly string[], use: (upload: Upload) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) return use({ files: {}, fields: {}, entries: [] });
  const folder = await temporaryFolder('upload');
  try {
    return await use(await receive(request, fileFields, folder));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function receive(request: FastifyRequest, fileFields: readonly string[], folder: string): Promise<Upload> {
  const upload: Upload = { files: {}, fields: {}, entries: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') {
          upload.fields[part.fieldname] = part.value;
          upload.entries.push([part.fieldname, part.value]);
        }
        continue;
      }
      if (!fileFields.includes(part.fieldname) || upload.files[part.fieldname]) {
        part.file.resume();
        throw errors.badRequest({ code: 'LIMIT_UNEXPECTED_FILE' });
      }
      const file = path.join(folder, `${part.fieldname}-${Object.keys(upload.files).length}`);
      const out = createWriteStream(file, { mode: 0o600 });
      let size = 0;
      part.file.on('data', (chunk: Buffer) => (size += chunk.length));
      await pipeline(part.file, out);
      if (part.file.truncated) throw errors.tooLarge();
      upload.files[part.fieldname] = { path: file, name: path.basename(part.filename.replace(/\\/g, '/')), type: part.mimetype.toLowerCase(), size };
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw errors.tooLarge();
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') throw errors.tooLarge();
    throw err;
  }
  return upload;
}

/** What Ghost's upload middleware accepts per kind of upload: the lower-cased extension and the declared type must both be listed. */
export interface UploadKind {
  extensions: readonly string[];
  contentTypes: readonly string[];
  /** Ghost's messages when the file is missing, or of a type not listed. */
  missing: string;
  invalid: string;
}

export const extensionOf = (name: string) => path.extname(name).toLowerCase();

export function isAcceptedType(kind: UploadKind, name: string, contentType: string): boolean {
  return kind.extensions.includes(extensionOf(name)) && kind.contentTypes.includes(contentType.split(';')[0]!.trim());
}

/**
 * Ghost's upload middleware checks: a file is there, and its name and declared type are both on the list.
 * These run before Ghost's controller, so their errors keep their own message.
 */
export function checkUploadedFile(kind: UploadKind, file: UploadedFile | undefined): UploadedFile {
  if (!file) throw errors.validation(kind.missing);
  if (!isAcceptedType(kind, file.name, file.type)) throw errors.unsupportedMedia(kind.invalid);
  return file;
}

/** `ref` as Ghost's images schema allows it: any text up to 2000 characters, echoed back. */
export function refOf(fields: Partial<Record<string, string>>, docName: string): string | null {
  const ref = fields.ref ?? null;
  if (ref !== null && ref.length > 2000) {
    throw errors.validation({
      message: 'Validation failed for ref.',
      property: 'ref',
      details: [
        {
          keyword: 'maxLength',
          dataPath: '.ref',
          schemaPath: `${docName}#/definitions/${docName.replace(/s$/, '')}/properties/ref/maxLength`,
          params: { limit: 2000 },
          message: 'should NOT be longer than 2000 characters',
        },
      ],
    });
  }
  return ref;
}

/** Ghost's upload middleware runs before its controller: errors raised there are not rewritten. */
export function beforeController(request: FastifyRequest) {
  request.controllerStarted = false;
}
export function controllerStarts(request: FastifyRequest) {
  request.controllerStarted = true;
}
