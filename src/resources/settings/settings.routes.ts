import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { parseBody } from '../../http/parse-body.js';
import { SETTINGS_EDIT } from './settings.schemas.js';
import { browseSettings, editSettings, siteFacts } from './settings.service.js';
import { presentAdminSettings, presentContentSettings } from './settings.present.js';
import type { SettingValues, SiteFacts } from '../../settings/derived.js';

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

/**
 * The Content API's answer per settings snapshot (browseSettings gives the same values until a setting
 * changes, here or on another instance): presented and serialised once, not per request.
 */
const contentAnswers = new WeakMap<SettingValues, { facts: SiteFacts; body: Buffer }>();

export function settingsContentRoutes(app: FastifyInstance) {
  app.get('/settings/', { config: { frame: frame('browse') } }, async ({ ctx }, reply) => {
    const values = await browseSettings(ctx);
    const facts = siteFacts(ctx);
    let kept = contentAnswers.get(values);
    if (!kept || kept.facts.siteUrl !== facts.siteUrl || kept.facts.mailFrom !== facts.mailFrom) {
      kept = { facts, body: Buffer.from(JSON.stringify({ settings: presentContentSettings(values, facts), meta: {} })) };
      contentAnswers.set(values, kept);
    }
    // A Buffer goes out as it is (the scope's serializer would encode a string again).
    reply.type('application/json; charset=utf-8');
    return kept.body;
  });
}
