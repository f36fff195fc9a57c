import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { errors } from '../../errors.js';
import { announceSiteChange } from '../../http/cache-invalidate.js';
import { beforeController, checkUploadedFile, controllerStarts, withUpload } from '../../http/upload.js';
import type { UploadKind } from '../../http/upload.js';
import { customTemplates, type ThemeCheck } from './theme-checks.js';
import { activateTheme, browseThemes, deleteTheme, downloadTheme, readActiveTheme, uploadTheme, type ThemeView } from './themes.service.js';

const ZIP_UPLOAD: UploadKind = {
  extensions: ['.zip'],
  contentTypes: ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'],
  missing: 'Please select a theme.',
  invalid: 'Please select a valid zip file.',
};

const frame = framesOf('themes');

/** Ghost's theme object: custom templates on the active theme only, findings only when there are some. */
function presentTheme(view: ThemeView, problems?: ThemeCheck | null) {
  return {
    name: view.name,
    package: view.package,
    active: view.active,
    ...(view.active ? { templates: customTemplates(view.files) } : {}),
    ...(problems?.warnings.length ? { warnings: problems.warnings } : {}),
    ...(problems?.errors.length ? { errors: problems.errors } : {}),
  };
}

export function themesRoutes(app: FastifyInstance) {
  app.get('/themes/', { config: { frame: frame('browse'), permission: 'theme.browse' } }, async (request) => {
    return { themes: (await browseThemes(request.ctx)).map((view) => presentTheme(view)) };
  });

  app.get('/themes/active/', { config: { frame: frame('readActive'), permission: 'theme.readActive' } }, async (request) => {
    const { view, problems } = await readActiveTheme(request.ctx);
    return { themes: [presentTheme(view, problems)] };
  });

  app.post('/themes/upload/', { config: { frame: frame('upload'), permission: 'theme.add' } }, async (request) => {
    beforeController(request);
    return withUpload(request, ['file'], async ({ files }) => {
      const zip = checkUploadedFile(ZIP_UPLOAD, files.file);
      controllerStarts(request);
      const { view, problems, replacedActive } = await uploadTheme(request.ctx, zip);
      if (replacedActive) await announceSiteChange(request.ctx);
      return { themes: [presentTheme(view, problems)] };
    });
  });

  app.put<{ Params: { name: string } }>(
    '/themes/:name/activate/',
    { config: { frame: frame('activate'), permission: 'theme.activate', invalidatesSite: true } },
    async (request) => {
      const { view, problems } = await activateTheme(request.ctx, request.params.name);
      return { themes: [presentTheme({ ...view, active: true }, problems)] };
    },
  );

  app.get<{ Params: { name: string } }>(
    '/themes/:name/download/',
    { config: { frame: frame('download'), permission: 'theme.read' } },
    async (request, reply) => {
      const zip = await downloadTheme(request.ctx, request.params.name);
      return reply.type('application/zip').header('Content-Disposition', `attachment; filename=${request.params.name}.zip`).send(zip);
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/themes/:name/',
    { config: { frame: frame('destroy'), permission: 'theme.destroy', invalidatesSite: true } },
    async (request, reply) => {
      if (!request.params.name) throw errors.notFound('Theme does not exist.');
      await deleteTheme(request.ctx, request.params.name);
      return reply.status(204).send();
    },
  );
}
