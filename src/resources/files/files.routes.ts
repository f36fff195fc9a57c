import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import { beforeController, controllerStarts, refOf, withUpload } from '../../http/upload.js';
import { freeKey, monthFolder } from '../../storage/upload-keys.js';

/**
 * `POST /files/upload/` (the file card): any file, as Ghost stores it, at `files/YYYY/MM/<free name>`. Served
 * from `/content/files/` with `nosniff` and a sandboxing policy, so an uploaded page runs no script on the site.
 */
export function filesRoutes(app: FastifyInstance) {
  app.post('/files/upload/', { config: { frame: { docName: 'files', method: 'upload' } } }, async (request, reply) => {
    beforeController(request);
    return withUpload(request, ['file'], async ({ files, fields }) => {
      // Ghost answers a missing file with a 500 (it reads the size of nothing); this is its message for a missing upload.
      if (!files.file) throw errors.validation('Please select a file.');
      controllerStarts(request);
      const ref = refOf(fields, 'files');
      const key = await freeKey(request.ctx.storage, `files/${monthFolder(request.ctx.clock.now())}`, files.file.name);
      await request.ctx.storage.write(key, createReadStream(files.file.path));
      reply.status(201);
      return { files: [{ url: request.ctx.storage.url(key), ref }] };
    });
  });
}
