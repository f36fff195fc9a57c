import type { Ctx } from '../ctx.js';

/** The Content API key the site's scripts (Portal, search) send: Ghost's internal frontend integration's (migration 0021). */
export async function frontendContentKey(ctx: Ctx): Promise<string> {
  const row = await ctx.db
    .selectFrom('api_keys')
    .innerJoin('integrations', 'integrations.id', 'api_keys.integration_id')
    .select('api_keys.secret')
    .where('integrations.slug', '=', 'ghost-internal-frontend')
    .where('api_keys.type', '=', 'content')
    .executeTakeFirst();
  return row?.secret ?? '';
}
