import type { PostRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import type { Ctx } from '../../ctx.js';
import { actorOf } from '../../auth/actor.js';
import { checkPostPermission } from './posts.permissions.js';
import { authorIdsOf, tagIdsOf, writeAuthors, writeTags } from './posts.relations.js';
import { checkPostColumns } from './posts.rules.js';
import { recordRevision, revisionSnapshot } from './posts.revisions.js';
import { recordAdded } from './posts.events.js';
import { findAnyPost, findPostMeta, insertPost, insertPostMeta, insertPostTiers, savedContentOf } from './posts.queries.js';
import { tierIdsOfPost } from './posts.tiers.js';
import type { PostType } from './posts.schemas.js';
import { authorOfWrite, type WriteResult } from './posts.service.js';
import { uniqueSlug } from './posts.rows.js';

/**
 * `POST /posts/:id/copy/`: a draft titled `<title> (Copy)` with the same content, tags, authors, tiers and SEO
 * fields (not its e-mail settings, canonical URL or dates).
 */
export async function copyPost(ctx: Ctx, type: PostType, id: string): Promise<WriteResult> {
  checkPostPermission(actorOf(ctx), 'add', {}, null);
  const authorId = await authorOfWrite(ctx);
  return ctx.write(async (w) => {
    const { db: trx, clock, actingUserId: userId, site } = w;
    const source = await findAnyPost(trx, id);
    if (!source || source.type !== type) throw errors.notFound('Post not found.');
    const meta = await findPostMeta(trx, id);
    const newId = objectId();
    const at = clock.now();
    const title = `${source.title} (Copy)`;
    const row: PostRow = {
      ...source,
      id: newId,
      uuid: uuid(),
      title,
      slug: await uniqueSlug(trx, title),
      comment_id: newId,
      status: 'draft',
      created_at: at,
      created_by: userId,
      updated_at: at,
      updated_by: userId,
      published_at: null,
      published_by: null,
      canonical_url: null,
      newsletter_id: null,
      show_title_and_feature_image: true,
    };
    checkPostColumns(row);
    await insertPost(trx, row);
    await writeTags(trx, newId, await tagIdsOf(trx, id), true);
    await writeAuthors(trx, newId, await authorIdsOf(trx, id), true);
    const tierIds = await tierIdsOfPost(trx, id);
    await insertPostTiers(trx, newId, tierIds);
    if (meta) {
      const { id: _metaId, post_id: _postId, email_subject: _subject, email_only: _emailOnly, ...copied } = meta;
      if (Object.values(copied).some(Boolean)) {
        await insertPostMeta(trx, { ...copied, id: objectId(), post_id: newId, email_subject: null, email_only: false });
      }
    }
    if (!row.mobiledoc)
      await recordRevision(trx, revisionSnapshot(row, meta ?? {}, authorId, site.url), { previousStatus: null, force: false, fresh: true }, clock);
    // A copy is a new draft: Ghost announces it as added.
    await recordAdded(w, type, row);
    return { id: newId, cacheInvalidate: null, saved: savedContentOf(row) };
  });
}
