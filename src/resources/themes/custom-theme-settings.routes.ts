import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { parseBody } from '../../http/parse-body.js';
import { CUSTOM_THEME_SETTINGS_EDIT } from './custom-theme-settings.schemas.js';
import { browseCustomThemeSettings, editCustomThemeSettings } from './custom-theme-settings.service.js';

const frame = framesOf('custom_theme_settings');

/** The active theme's custom settings (Ghost's Design screen); an edit changes the public site. */
export function customThemeSettingsRoutes(app: FastifyInstance) {
  app.get('/custom_theme_settings/', { config: { frame: frame('browse'), permission: 'custom_theme_setting.browse' } }, async (request) => ({
    custom_theme_settings: await browseCustomThemeSettings(request.ctx),
  }));

  app.put('/custom_theme_settings/', { config: { frame: frame('edit'), permission: 'custom_theme_setting.edit', invalidatesSite: true } }, async (request) => ({
    custom_theme_settings: await editCustomThemeSettings(request.ctx, parseBody(request, CUSTOM_THEME_SETTINGS_EDIT)),
  }));
}
