import sharp from 'sharp';

export interface FilePart {
  name: string;
  type: string;
  data: Buffer | string;
}

/** A multipart/form-data body as browsers and the SDKs send it, for `inject`. */
export async function multipartBody(parts: Record<string, string | string[] | FilePart>): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [field, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(field, value);
    else if (Array.isArray(value)) for (const each of value) form.append(field, each);
    else form.append(field, new Blob([typeof value.data === 'string' ? value.data : new Uint8Array(value.data)], { type: value.type }), value.name);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** A solid-colour image of the given size and format, made here so no binary fixtures are needed. */
export function image(width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp', colour = '#c03'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

/** A minimal .ico holding one PNG image of `size` px. */
export async function icon(size: number): Promise<Buffer> {
  const png = await image(size, size, 'png');
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header[6] = size >= 256 ? 0 : size;
  header[7] = size >= 256 ? 0 : size;
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/><script>alert(1)</script></svg>';

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Unix mode, e.g. `0o120777` for a symbolic link. */
  mode?: number;
  /** Stored rather than deflated (much faster for thousands of tiny entries). */
  stored?: boolean;
}

/**
 * A zip built here (yazl), so hostile archives need no binary fixtures. yazl refuses unsafe names, so an entry
 * may name a safe stand-in and `rename` swaps it for the hostile name of the same length in the finished bytes.
 */
export async function zipOf(entries: ZipEntry[], rename: Record<string, string> = {}): Promise<Buffer> {
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addBuffer(Buffer.from(entry.data ?? ''), entry.name, { ...(entry.mode === undefined ? {} : { mode: entry.mode }), compress: !entry.stored });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (from.length !== to.length) throw new Error('a rename keeps the length');
    const find = Buffer.from(from);
    for (let at = bytes.indexOf(find); at !== -1; at = bytes.indexOf(find, at + 1)) bytes.write(to, at);
  }
  return bytes;
}

/** A theme zip as themes are usually packed: one folder holding package.json and the templates. */
export function themeZip(folder: string, files: Record<string, string> = {}): Promise<Buffer> {
  const all = {
    'package.json': JSON.stringify({ name: folder, version: '1.0.0', config: { image_sizes: { s: { width: 300 } } } }),
    'index.hbs': '{{#foreach posts}}{{title}}{{/foreach}}',
    'post.hbs': '{{#post}}{{title}}{{/post}}',
    'custom-wide-page.hbs': '{{#post}}{{title}}{{/post}}',
    ...files,
  };
  return zipOf(Object.entries(all).map(([name, data]) => ({ name: `${folder}/${name}`, data })));
}

/** A few bytes that file-type reads as MP3 (an ID3 tag then an MPEG frame header). */
export function mp3(): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, frame, frame]);
}

/** The `YYYY/MM` folder an upload made now is stored under (UTC), as Ghost names it. */
export const uploadMonth = () => {
  const now = new Date();
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
};
