import type { Db } from '../../db/connect.js';
import type { Ctx, WriteCtx } from '../../ctx.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { slugify } from '../../content/slugs.js';
import { mayDestroyUser } from '../../auth/staff-rules.js';
import { readSetting } from '../../settings/settings.js';
import { findOwner, findUserById, roleOfUser } from './users.queries.js';
import { insertTag } from '../tags/tags.service.js';

/**
 * `DELETE /users/:id/` as Ghost's `Users.destroyUser`: first a backup of what the deletion changes, then
 * in one transaction: revisions lose their author; the user's posts get an internal `#<slug>` tag; posts
 * pass to the Owner (who becomes primary author where the user was); keys, sessions and the user go.
 * Returns the backup's file name.
 */
export async function destroyUser(ctx: Ctx, id: string): Promise<string> {
  const { db } = ctx;
  const actor = actorOf(ctx);
  const target = await findUserById(db, id);
  if (!target) throw errors.notFound('User not found');
  const role = await roleOfUser(db, target.id);
  if (!mayDestroyUser(actor, { id: target.id, role })) throw errors.noPermission('You do not have permission to destroy users');
  const filename = await writeBackup(ctx, target.id);

  await ctx.write(async (w) => {
    const trx = w.db;
    const owner = await findOwner(trx);
    if (!owner) throw new Error('the site has no Owner');
    await trx.updateTable('post_revisions').set({ author_id: null }).where('author_id', '=', target.id).execute();
    const authored = await trx.selectFrom('posts_authors').select(['post_id', 'sort_order']).where('author_id', '=', target.id).execute();
    if (authored.length > 0) {
      await tagPosts(
        w,
        authored.map((row) => row.post_id),
        target.slug,
      );
      await reassignPosts(trx, authored, target.id, owner.id);
    }
    await trx.deleteFrom('api_keys').where('user_id', '=', target.id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', target.id).execute();
    await trx.deleteFrom('roles_users').where('user_id', '=', target.id).execute();
    await trx.deleteFrom('users').where('id', '=', target.id).execute();
  });
  return filename;
}

/** The internal tag `#<slug>` (slug `hash-<slug>`) on every post of the user, appended after its tags. */
async function tagPosts(ctx: WriteCtx, postIds: string[], userSlug: string): Promise<void> {
  const { db } = ctx;
  let tag = await db.selectFrom('tags').select('id').where('slug', '=', `hash-${userSlug}`).executeTakeFirst();
  // Named `#<slug>`, the tag is internal and its slug `hash-<slug>`, as insertTag derives them.
  tag ??= await insertTag(ctx, { name: `#${userSlug}` });
  const tagId = tag.id;
  const tagged = new Set(
    (await db.selectFrom('posts_tags').select('post_id').where('tag_id', '=', tagId).where('post_id', 'in', postIds).execute()).map((r) => r.post_id),
  );
  const untagged = [...new Set(postIds)].filter((postId) => !tagged.has(postId));
  if (untagged.length === 0) return;
  const last = await db
    .selectFrom('posts_tags')
    .select(['post_id', (eb) => eb.fn.max('sort_order').as('max')])
    .where('post_id', 'in', untagged)
    .groupBy('post_id')
    .execute();
  const next = new Map(last.map((row) => [row.post_id, Number(row.max) + 1]));
  await db
    .insertInto('posts_tags')
    .values(untagged.map((postId) => ({ id: objectId(), post_id: postId, tag_id: tagId, sort_order: next.get(postId) ?? 0 })))
    .execute();
}

/** Ghost's `reassignByAuthor`: posts led by the user are led by the Owner; co-authorships end. */
async function reassignPosts(db: Db, authored: { post_id: string; sort_order: number }[], userId: string, ownerId: string): Promise<void> {
  const primary = authored.filter((row) => row.sort_order === 0).map((row) => row.post_id);
  if (primary.length > 0) {
    const ownerCoauthored = new Set(
      (await db.selectFrom('posts_authors').select('post_id').where('author_id', '=', ownerId).where('post_id', 'in', primary).execute()).map((r) => r.post_id),
    );
    const withOwner = primary.filter((postId) => ownerCoauthored.has(postId));
    const withoutOwner = primary.filter((postId) => !ownerCoauthored.has(postId));
    if (withOwner.length > 0) {
      await db.deleteFrom('posts_authors').where('author_id', '=', userId).where('post_id', 'in', withOwner).execute();
      await db.updateTable('posts_authors').set({ sort_order: 0 }).where('author_id', '=', ownerId).where('post_id', 'in', withOwner).execute();
    }
    if (withoutOwner.length > 0) {
      await db.updateTable('posts_authors').set({ author_id: ownerId }).where('author_id', '=', userId).where('post_id', 'in', withoutOwner).execute();
    }
  }
  await db.deleteFrom('posts_authors').where('author_id', '=', userId).execute();
}

/**
 * What the deletion will change, stored privately under `data/` (`<CONTENT_DIR>/data/` on local disk) with Ghost's backup name
 * (`<site>.ghost.<YYYY-MM-DD-HH-mm-ss>.json`): the user (without password), role, authorship and
 * revisions, enough to restore them by hand.
 */
async function writeBackup({ db, clock, storage }: Ctx, userId: string): Promise<string> {
  const [user, roles, authorship, revisions, title] = await Promise.all([
    findUserById(db, userId),
    db.selectFrom('roles_users').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('posts_authors').selectAll().where('author_id', '=', userId).execute(),
    db.selectFrom('post_revisions').select(['id', 'post_id']).where('author_id', '=', userId).execute(),
    readSetting(db, 'title'),
  ]);
  const { password: _password, ...safeUser } = user!;
  const at = clock.now();
  const stamp = at.toISOString().replace(/T/, '-').replace(/:/g, '-').slice(0, 19);
  const filename = `${title ? `${slugify(title)}.` : ''}ghost.${stamp}.json`;
  const data = {
    meta: { exported_on: clock.epochMs(), reason: 'user deletion' },
    data: { users: [safeUser], roles_users: roles, posts_authors: authorship, post_revisions: revisions },
  };
  await storage.write(`data/${filename}`, JSON.stringify(data), { private: true });
  return filename;
}
