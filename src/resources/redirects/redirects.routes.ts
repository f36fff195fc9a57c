import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { announceSiteChange } from '../../http/cache-invalidate.js';
import { beforeController, checkUploadedFile, controllerStarts, extensionOf, withUpload, type UploadKind } from '../../http/upload.js';
import { readStoredRedirects, storeRedirects } from './redirects.store.js';

const REDIRECTS_UPLOAD: UploadKind = {
  extensions: ['.json', '.yaml'],
  contentTypes: ['text/plain', 'text/yaml', 'application/octet-stream', 'application/json', 'application/yaml', 'application/x-yaml'],
  missing: 'Please select a JSON file.',
  invalid: 'Please select a valid JSON file to import.',
};

const frame = framesOf('redirects');

/**
 * `GET /redirects/download/` answers the file in effect as Ghost does: a JSON list (`[]` when there is
 * none) as `redirects.json`, or the YAML text as uploaded as `redirects.yaml` (sent as HTML, as Ghost's plain
 * format sends it). `POST /redirects/upload/` takes a `.json` or `.yaml` file in the field `redirects`.
 */
export function redirectsRoutes(app: FastifyInstance) {
  app.get('/redirects/download/', { config: { frame: frame('download'), permission: 'redirect.download' } }, async (request, reply) => {
    const stored = await readStoredRedirects(request.ctx);
    if (stored?.format === 'yaml') {
      return reply.type('text/html; charset=utf-8').header('Content-Disposition', 'Attachment; filename="redirects.yaml"').send(stored.text);
    }
    return reply
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', 'Attachment; filename="redirects.json"')
      .send(stored ? stored.text : '[]');
  });

  app.post('/redirects/upload/', { config: { frame: frame('upload'), permission: 'redirect.upload' } }, async (request) => {
    beforeController(request);
    return withUpload(request, ['redirects'], async ({ files }) => {
      const file = checkUploadedFile(REDIRECTS_UPLOAD, files.redirects);
      controllerStarts(request);
      await storeRedirects(request.ctx, await readFile(file.path, 'utf8'), extensionOf(file.name) === '.yaml' ? 'yaml' : 'json');
      await announceSiteChange(request.ctx);
      return {};
    });
  });
}
