import type { FastifyInstance } from 'fastify';
import { readAllSettings } from '../../settings/settings.js';
import { calculatedSettings } from '../../settings/derived.js';
import { SERVER_VERSION } from '../../http/api-headers.js';
import { publicValue } from '../settings/settings.present.js';
import { siteFacts } from '../settings/settings.service.js';

/** `GET /site/`: public, lets clients probe the server and its version. */
export function siteRoutes(app: FastifyInstance) {
  app.get('/site/', { config: { auth: 'public', frame: { docName: 'site', method: 'read' } } }, async ({ ctx }) => {
    const values = await readAllSettings(ctx.db);
    const value = (key: Parameters<typeof publicValue>[0]) => publicValue(key, values, ctx.site.url);
    // Sign-up from outside needs self sign-up, and no terms the visitor would first have to accept.
    const termsToAccept = Boolean(value('portal_signup_checkbox_required')) && Boolean(value('portal_signup_terms_html'));
    return {
      site: {
        title: value('title'),
        description: value('description'),
        logo: value('logo'),
        icon: value('icon'),
        cover_image: value('cover_image'),
        accent_color: value('accent_color'),
        locale: value('locale'),
        url: ctx.site.url,
        version: SERVER_VERSION,
        allow_external_signup: calculatedSettings(values, siteFacts(ctx)).allow_self_signup && !termsToAccept,
        site_uuid: value('site_uuid'),
      },
    };
  });
}
