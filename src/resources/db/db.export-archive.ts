import { PassThrough, Readable } from 'node:stream';
import yazl from 'yazl';
import type { Ctx } from '../../ctx.js';
import { readStoredText, ROUTES_KEY } from '../route-settings/route-settings.store.js';
import { readStoredRedirects } from '../redirects/redirects.store.js';
import { downloadTheme, listThemes } from '../themes/themes.service.js';
import { RESERVED_THEME_NAMES } from '../themes/default-theme.js';
import { exportResponse } from './db.export.js';

/**
 * The site as Ghost 6's archive zip lays it out, which `POST /db/` and `quire import` read back whole:
 * `export.json` (the JSON export with `include`'s tables), the stored `routes.yaml` and redirects file
 * (`redirects.yaml` or `redirects.json`, as the site keeps it), and `themes/<name>.zip` for each uploaded theme.
 * Quire's own theme is left out: every install has it and an import refuses its name. A site on Ghost's default
 * routes or without redirects has no such entry, so an import leaves the receiving site's files as they are.
 *
 * Streamed as it is built: the export is read table by table and each theme is zipped when its turn comes, so
 * memory stays flat however large the site is. A failure (the database, a theme file) destroys the stream with
 * the error, so a writer never takes a truncated zip for a complete one.
 */
export function exportArchive(ctx: Ctx, include: readonly string[]): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  const fail = (err: Error) => out.destroy(err);
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(out);
  // yazl pipes an entry's stream without watching it: its errors are passed on here, and no stream is opened once
  // the reader has gone.
  const lazily = (name: string, open: () => Readable | Promise<Readable>, options: { compress?: boolean } = {}) =>
    zip.addReadStreamLazy(name, options, (done) => {
      if (out.destroyed) return done(new Error('The export was abandoned.'), undefined as never);
      Promise.resolve()
        .then(open)
        .then((stream) => done(null, stream.once('error', fail)), fail);
    });

  void (async () => {
    lazily('export.json', () => Readable.from(exportResponse(ctx.db, ctx.clock, include)));
    const routes = await readStoredText(ctx.storage, ROUTES_KEY);
    if (routes !== null) zip.addBuffer(Buffer.from(routes), 'routes.yaml');
    const redirects = await readStoredRedirects(ctx);
    if (redirects) zip.addBuffer(Buffer.from(redirects.text), `redirects.${redirects.format}`);
    for (const { name } of await listThemes(ctx)) {
      // A theme zip is already compressed.
      if (!RESERVED_THEME_NAMES.includes(name)) lazily(`themes/${name}.zip`, () => downloadTheme(ctx, name), { compress: false });
    }
    zip.end();
  })().catch(fail);
  return out;
}
