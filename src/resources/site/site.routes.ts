import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { readSettings } from '../settings/settings.queries.js';
import { SERVER_VERSION } from '../../http/api-headers.js';

const SITE_KEYS = ['title', 'description', 'logo', 'icon', 'cover_image', 'accent_color', 'locale', 'site_uuid', 'members_signup_access'];

/** `GET /site/`: public, lets clients probe the server and its version. */
export function siteRoutes(app: FastifyInstance, { db, siteUrl }: { db: Db; siteUrl: string }) {
  app.get('/site/', { config: { auth: 'public', frame: { docName: 'site', method: 'read' } } }, async () => {
    const settings = await readSettings(db, SITE_KEYS);
    return {
      site: {
        title: settings.get('title') ?? null,
        description: settings.get('description') ?? null,
        logo: settings.get('logo') || null,
        icon: settings.get('icon') || null,
        cover_image: settings.get('cover_image') || null,
        accent_color: settings.get('accent_color') ?? null,
        locale: settings.get('locale') ?? 'en',
        url: siteUrl,
        version: SERVER_VERSION,
        allow_external_signup: settings.get('members_signup_access') === 'all',
        site_uuid: settings.get('site_uuid') ?? null,
      },
    };
  });
}
