import { randomBytes } from 'node:crypto';
import { objectId } from '../ids.js';
import type { MigrationFactory } from './factory.js';

/**
 * Ghost's internal frontend integration (`ghost-internal-frontend`): its Content API key is the one the site
 * prints for Portal and search (`data-key` in `{{ghost_head}}`), as Ghost does. Internal integrations are not
 * listed by `GET /integrations/`.
 */
export const frontendIntegration: MigrationFactory = () => ({
  async up(db) {
    const created_at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const id = objectId();
    await db
      .insertInto('integrations')
      .values({
        id,
        type: 'internal',
        name: 'Ghost Internal Frontend',
        slug: 'ghost-internal-frontend',
        description: 'Internal frontend integration',
        created_by: '1',
        created_at,
        updated_at: created_at,
      })
      .execute();
    await db
      .insertInto('api_keys')
      .values({
        id: objectId(),
        type: 'content',
        secret: randomBytes(13).toString('hex'),
        integration_id: id,
        created_by: '1',
        created_at,
        updated_at: created_at,
      })
      .execute();
  },
  async down(db) {
    await db.deleteFrom('integrations').where('slug', '=', 'ghost-internal-frontend').execute();
  },
});
