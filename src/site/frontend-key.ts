import type { Ctx } from '../ctx.js';

/**
 * The Content API key the site's scripts (Portal, search) send: Ghost's built-in frontend integration's
 * (`ghost-core`) key, or an empty string while no such integration exists (the members work seeds it).
 */
export async function frontendContentKey(ctx: Ctx): Promise<string> {
  const row = await ctx.db
    .selectFrom('api_keys')
    .innerJoin('integrations', 'integrations.id', 'api_keys.integration_id')
    .select('api_keys.secret')
    .where('integrations.slug', '=', 'ghost-core')
    .where('api_keys.type', '=', 'content')
    .executeTakeFirst();
  return row?.secret ?? '';
}
