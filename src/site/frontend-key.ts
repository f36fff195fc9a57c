import type { Ctx } from '../ctx.js';
import { frontendKeySecret } from './site.queries.js';

/** The Content API key the site's scripts (Portal, search) send: Ghost's internal frontend integration's (migration 0021). */
export async function frontendContentKey(ctx: Ctx): Promise<string> {
  const row = await frontendKeySecret(ctx.db);
  return row?.secret ?? '';
}
