import type { FastifyInstance } from 'fastify';
import { readSettings } from '../../settings/settings.js';
import { SERVER_VERSION } from '../../http/api-headers.js';

const SITE_KEYS = ['title', 'description', 'logo', 'icon', 'cover_image', 'accent_color', 'locale', 'site_uuid', 'members_signup_access'] as const;

/** `GET /site/`: public, lets clients probe the server and its version. */
export function siteRoutes(app: FastifyInstance) {
  app.get('/site/', { config: { auth: 'public', frame: { docName: 'site', method: 'read' } } }, async ({ ctx }) => {
    const settings = await readSettings(ctx.db, SITE_KEYS);
    return {
      site: {
        title: settings.get('title') ?? null,
        description: settings.get('description') ?? null,
        logo: settings.get('logo') || null,
        icon: settings.get('icon') || null,
        cover_image: settings.get('cover_image') || null,
        accent_color: settings.get('accent_color') ?? null,
        locale: settings.get('locale') ?? 'en',
        url: ctx.site.url,
        version: SERVER_VERSION,
        allow_external_signup: settings.get('members_signup_access') === 'all',
        site_uuid: settings.get('site_uuid') ?? null,
      },
    };
  });
}
