import type { Ctx, MemberAccess } from '../ctx.js';
import { parseBrowseParams } from '../browse/params.js';
import { findPost } from '../resources/posts/posts.queries.js';
import { contentPosts } from '../resources/posts/posts.responses.js';
import { CONTENT_INCLUDES, FORMATS } from '../resources/posts/posts.schemas.js';
import type { Entity } from './data.js';
import { allTierIds } from './site.queries.js';

/**
 * Draft previews (`/p/{uuid}/`, the admin app's Preview button): a post or page of any status by its uuid,
 * shown with the access `member_status` asks for (`anonymous`, `free`, `paid`), or with full access
 * without it, as Ghost's preview controller assumes the staff user may read it all.
 */
export interface PreviewEntry {
  entry: Entity;
  type: 'post' | 'page';
  status: string;
}

async function accessFor(ctx: Ctx, memberStatus: unknown): Promise<MemberAccess | null> {
  if (memberStatus === 'anonymous') return null;
  if (memberStatus === 'free') return { status: 'free', tierIds: [] };
  return { status: 'paid', tierIds: await allTierIds(ctx.db) };
}

export async function readPreview(ctx: Ctx, uuid: string, memberStatus: unknown): Promise<PreviewEntry | null> {
  for (const type of ['post', 'page'] as const) {
    const row = await findPost(ctx.db, { uuid }, { type });
    if (!row) continue;
    const member = await accessFor(ctx, memberStatus);
    const params = parseBrowseParams({ include: 'authors,tags,tiers' }, { include: CONTENT_INCLUDES, formats: FORMATS });
    const [entry] = (await contentPosts(ctx.db, [row], {
      siteUrl: ctx.site.url,
      engine: ctx.engine,
      include: params.include,
      formats: new Set(['html']),
      ...(member ? { member } : {}),
    } as never)) as Entity[];
    return { entry: { ...entry, uuid: row.uuid }, type, status: row.status };
  }
  return null;
}
