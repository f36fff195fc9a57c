import path from 'node:path';
import { framesOf } from '../../http/frame.js';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { jobCtx } from '../../ctx.js';
import { parseInclude } from '../../browse/include.js';
import { beforeController, checkUploadedFile, controllerStarts, withUpload } from '../../http/upload.js';
import { importJobAnswer } from '../../http/job-state.js';
import { locationOf } from '../../http/location.js';
import { exportFileName, exportResponse } from './db.export.js';
import { BACKUP_TABLES } from './db.tables.js';
import { DB_UPLOAD, readImportFile } from './db.file.js';
import { importGhostExport } from './db.import.js';
import { DB_IMPORT_JOB, queueImport } from './db.import-job.js';
import { backupContent, deleteAllContent, readBackup } from './db.service.js';

type Query = { include?: unknown; filename?: unknown };
const frame = framesOf('db');
const filenameOf = (query: Query) => (typeof query.filename === 'string' && query.filename ? query.filename : undefined);

export interface DbRoutesOptions {
  /** Where backups are on local disk, to name them as Ghost does (an absolute path); null on object storage. */
  backupFolder: string | null;
  /** Files of more bytes than this are imported by a background job (`DB_IMPORT_INLINE_BYTES`). */
  inlineBytes: number;
}

/** Ghost's db endpoints: export, import, delete all content, backup (Owner and Administrator; see permissions). */
export function dbRoutes(app: FastifyInstance, { backupFolder, inlineBytes }: DbRoutesOptions) {
  app.get<{ Querystring: Query }>('/db/', { config: { frame: frame('exportContent'), permission: 'db.exportContent' } }, async (request, reply) => {
    const { ctx } = request;
    const filename = filenameOf(request.query);
    // `?filename=` reads back a backup; otherwise the export is written table by table as it is read.
    const body = filename
      ? Readable.from(wrapped(await readBackup(ctx, filename)))
      : Readable.from(exportResponse(ctx.db, ctx.clock, parseInclude(request.query.include, BACKUP_TABLES)));
    return reply
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', `Attachment; filename="${await exportFileName(ctx.db, ctx.clock)}"`)
      .send(body);
  });

  app.post('/db/', { config: { frame: frame('importContent'), permission: 'db.importContent' } }, async (request, reply) => {
    beforeController(request);
    return withUpload(request, ['importfile'], async ({ files }) => {
      const file = checkUploadedFile(DB_UPLOAD, files.importfile);
      controllerStarts(request);
      if (file.size > inlineBytes) {
        const job = await queueImport(request.ctx, file);
        // Ghost's answer to an import it runs in the background; where its outcome can be read is Quire's addition
        // (Ghost e-mails a report). `site.changed` is recorded when the import commits.
        reply.header('X-Cache-Invalidate', '/*').header('Location', locationOf(request, `import/${job}`));
        return { db: [], problems: [] };
      }
      const parsed = await readImportFile(file, request.ctx.storage);
      // Ghost imports in its internal context: no audit actions for the rows written.
      const report = await importGhostExport(jobCtx({ ...request.ctx, db: request.ctx.autocommitDb }), parsed);
      reply.header('X-Cache-Invalidate', '/*');
      return { db: [], problems: report.problems };
    });
  });

  app.get<{ Params: { id: string } }>('/db/import/:id/', { config: { frame: frame('importStatus'), permission: 'db.importContent' } }, async (request) =>
    importJobAnswer(request.ctx, request.params.id, DB_IMPORT_JOB),
  );

  app.delete('/db/', { config: { frame: frame('deleteAllContent'), permission: 'db.deleteAllContent' } }, async (request, reply) => {
    await deleteAllContent(request.ctx);
    return reply.header('X-Cache-Invalidate', '/*').status(204).send();
  });

  app.post<{ Querystring: Query }>('/db/backup/', { config: { frame: frame('backupContent'), permission: 'db.backupContent' } }, async (request) => {
    const filename = await backupContent(request.ctx, {
      include: parseInclude(request.query.include, BACKUP_TABLES),
      filename: filenameOf(request.query),
    });
    return { db: [{ filename: backupFolder ? path.join(backupFolder, filename) : `data/${filename}` }] };
  });
}

async function* wrapped(backup: Readable): AsyncGenerator<string | Buffer> {
  yield '{"db":[';
  for await (const chunk of backup) yield chunk as Buffer;
  yield ']}';
}
