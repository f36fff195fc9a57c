import { Readable } from 'node:stream';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { MissingFileError } from '../../storage/storage.js';
import { siteChanged } from '../posts/posts.publish.js';
import { exportDocument, exportFileName } from './db.export.js';

/** Where backups live in storage (`<CONTENT_DIR>/data/` on local disk), readable by the service's user only. */
const backupKey = (filename: string) => `data/${filename}`;

/**
 * Ghost's `backup`: the export (`{meta, data}`, without the API's `db` wrapper) written to `data/<name>`,
 * streamed from the database to storage. Returns the file name.
 */
export async function backupContent(ctx: Ctx, options: { include: readonly string[]; filename?: string }): Promise<string> {
  const filename = await exportFileName(ctx.db, ctx.clock, options.filename);
  await ctx.storage.write(backupKey(filename), Readable.from(exportDocument(ctx.db, ctx.clock, options.include, { authorship: true })), { private: true });
  return filename;
}

/**
 * `GET /db/?filename=`: a backup written earlier, as Ghost reads it (the name's folder part is dropped). Only
 * `.json` files: `data/` also holds the secrets key and the SQLite database, which Ghost's check would let out.
 */
export async function readBackup(ctx: Ctx, filename: string): Promise<Readable> {
  const name = filename.replace(/\\/g, '/').split('/').pop()!;
  try {
    if (!name.endsWith('.json') || name === '.json') throw new MissingFileError(name);
    return await ctx.storage.read(backupKey(name));
  } catch (err) {
    if (err instanceof MissingFileError) throw errors.notFound();
    throw err;
  }
}

/**
 * Ghost's `deleteAllContent`: a backup first, then every post, page and tag with what hangs off them, in one
 * transaction. Users, settings, members, tiers and newsletters stay. No per-post events fire (Ghost destroys
 * with `destroyAll`); the answer invalidates the whole site.
 */
export async function deleteAllContent(ctx: Ctx): Promise<void> {
  await backupContent(ctx, { include: [] });
  await ctx.write(async (w) => {
    for (const table of ['posts_tags', 'posts_authors', 'posts_meta', 'post_revisions', 'posts_products', 'emails', 'posts', 'tags'] as const) {
      await w.db.deleteFrom(table).execute();
    }
    siteChanged(w, '/*');
  });
}
