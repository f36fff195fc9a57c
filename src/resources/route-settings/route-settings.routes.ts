import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { announceSiteChange } from '../../http/cache-invalidate.js';
import { beforeController, checkUploadedFile, controllerStarts, withUpload, type UploadKind } from '../../http/upload.js';
import { readRoutesYaml, storeRoutesYaml } from './route-settings.store.js';

const YAML_UPLOAD: UploadKind = {
  extensions: ['.yaml'],
  contentTypes: ['text/plain', 'text/yaml', 'application/octet-stream', 'application/yaml', 'application/x-yaml'],
  missing: 'Please select a YAML file.',
  invalid: 'Please select a valid YAML file to import.',
};

const frame = framesOf('settings');

/**
 * `GET /settings/routes/yaml/` answers the routes.yaml in effect as Ghost sends it (a YAML attachment);
 * `POST` takes a new one in the multipart field `routes`, validated as Ghost validates it, and answers `{}`.
 */
export function routeSettingsRoutes(app: FastifyInstance) {
  app.get('/settings/routes/yaml/', { config: { frame: frame('download'), permission: 'setting.browse' } }, async (request, reply) => {
    const text = await readRoutesYaml(request.ctx);
    return reply.type('application/yaml; charset=utf-8').header('Content-Disposition', 'Attachment; filename="routes.yaml"').send(text);
  });

  app.post('/settings/routes/yaml/', { config: { frame: frame('upload'), permission: 'setting.edit' } }, async (request) => {
    beforeController(request);
    return withUpload(request, ['routes'], async ({ files }) => {
      const file = checkUploadedFile(YAML_UPLOAD, files.routes);
      controllerStarts(request);
      await storeRoutesYaml(request.ctx, await readFile(file.path, 'utf8'));
      await announceSiteChange(request.ctx);
      return {};
    });
  });
}
