import type { FastifyInstance } from 'fastify';
import { databaseProduct } from '../../db/product.js';
import { readAllSettings } from '../../settings/settings.js';
import { labsFlags } from '../../settings/derived.js';

export interface ConfigFacts {
  /** `STAFF_DEVICE_VERIFICATION`, which Ghost shows as `security.staffDeviceVerification`. */
  readonly staffDeviceVerification: boolean;
  /** Whether mail goes out over SMTP (Ghost shows its mail transport's name, `''` without one). */
  readonly smtp: boolean;
}

/** Ghost's version in full, as `/config/` reports it (`/site/` and the headers carry only major.minor). */
const FULL_VERSION = '5.130.6';

/**
 * `GET /config/`: what Ghost's admin app reads about the install, for any signed-in caller. The values are
 * Ghost's for a self-hosted install with this service's configuration: no Stripe direct mode, no Mailgun,
 * no Tenor key, no client extensions.
 */
export function configRoutes(app: FastifyInstance, facts: ConfigFacts) {
  app.get('/config/', { config: { frame: { docName: 'config', method: 'read' } } }, async ({ ctx }) => {
    const [database, values] = await Promise.all([databaseProduct(ctx.db, ctx.engine), readAllSettings(ctx.db)]);
    return {
      config: {
        version: FULL_VERSION,
        environment: 'production',
        database,
        mail: facts.smtp ? 'SMTP' : '',
        useGravatar: true,
        labs: labsFlags(values),
        clientExtensions: {},
        enableDeveloperExperiments: false,
        stripeDirect: false,
        mailgunIsConfigured: false,
        emailAnalytics: true,
        tenor: { googleApiKey: null, contentFilter: 'off' },
        signupForm: { url: 'https://cdn.jsdelivr.net/ghost/signup-form@~{version}/umd/signup-form.min.js', version: '0.2' },
        security: { staffDeviceVerification: facts.staffDeviceVerification },
        exploreTestimonialsUrl: 'https://explore.ghost.org/api/testimonials',
      },
    };
  });
}
