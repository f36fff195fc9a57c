import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { parseBody } from '../../http/parse-body.js';
import { SETTINGS_EDIT } from './settings.schemas.js';
import { browseSettings, editSettings, siteFacts } from './settings.service.js';
import { presentAdminSettings, presentContentSettings } from './settings.present.js';

type Query = Record<string, unknown>;

const frame = framesOf('settings');

/** `?group=a,b` (a repeated parameter counts as one list). */
function groupsOf(query: Query): string | null {
  const { group } = query;
  if (group === undefined || group === '') return null;
  return Array.isArray(group) ? group.join(',') : String(group);
}

export function settingsAdminRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/settings/', { config: { frame: frame('browse'), permission: 'setting.browse' } }, async (request) => {
    const group = groupsOf(request.query);
    const values = await browseSettings(request.ctx);
    return {
      settings: presentAdminSettings(values, siteFacts(request.ctx), group ? group.split(',') : null),
      meta: group ? { filters: { group } } : {},
    };
  });

  app.put('/settings/', { config: { frame: frame('edit'), permission: 'setting.edit' } }, async (request) => {
    await editSettings(request.ctx, parseBody(request, SETTINGS_EDIT));
    const values = await browseSettings(request.ctx);
    return { settings: presentAdminSettings(values, siteFacts(request.ctx), null), meta: {} };
  });
}

export function settingsContentRoutes(app: FastifyInstance) {
  app.get('/settings/', { config: { frame: frame('browse') } }, async ({ ctx }) => {
    return { settings: presentContentSettings(await browseSettings(ctx), siteFacts(ctx)), meta: {} };
  });
}
