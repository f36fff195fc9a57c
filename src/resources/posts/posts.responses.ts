import type { ReadDb } from '../../db/read-db.js';
import type { PostRow, TierRow } from '../../db/schema.js';
import type { MemberAccess } from '../../ctx.js';
import { authorsWithPublishedPosts, rolesOfUsers, usersByIds } from '../users/users.queries.js';
import { tagsWithPublishedPosts } from '../tags/tags.queries.js';
import { readSettings } from '../../settings/settings.js';
import { loadRecords, type PostRecord } from './posts.queries.js';
import { presentAdminPost, presentContentPost, type PresentContext } from './posts.present.js';
import type { Format } from './posts.schemas.js';
import type { Engine } from '../../db/engine.js';
import { loadPostTiers, tiersOfPosts } from './posts.tiers.js';
import { loadPostMailing } from './posts.email.js';

const unique = <T>(values: T[]) => [...new Set(values)];

/** Which tags and authors of these posts have published posts (their `url` is routable), looked up once. */
async function urlSets(db: ReadDb, records: PostRecord[], extraUsers: string[] = []) {
  const tagIds = unique(records.flatMap((record) => record.tags?.map((tag) => tag.id) ?? []));
  const userIds = unique([...records.flatMap((record) => record.authors?.map((user) => user.id) ?? []), ...extraUsers]);
  const [publishedTags, publishedAuthors] = await Promise.all([tagsWithPublishedPosts(db, tagIds), authorsWithPublishedPosts(db, userIds)]);
  return { publishedTags, publishedAuthors };
}

export interface AdminView {
  siteUrl: string;
  engine: Engine;
  include: readonly string[];
  formats: ReadonlySet<Format>;
  /** Content API: the signed-in member whose access the answer shows. */
  member?: MemberAccess | null;
}

/** The posts' tiers, when `tiers` is included. */
const tiersIfIncluded = (db: ReadDb, rows: PostRow[], view: AdminView) =>
  view.include.includes('tiers')
    ? loadPostTiers(
        db,
        view.engine,
        rows.map((row) => row.id),
      )
    : undefined;

/** Admin API posts or pages with their relations, in the envelope key's array. */
export async function adminPosts(db: ReadDb, rows: PostRow[], view: AdminView) {
  const include = view.include;
  const records = await loadRecords(db, rows, {
    tags: include.includes('tags'),
    authors: include.includes('authors'),
    revisions: include.includes('post_revisions'),
  });
  const revisionAuthorIds = include.includes('post_revisions.author')
    ? unique(records.flatMap((record) => record.revisions?.map((revision) => revision.author_id).filter((id): id is string => !!id) ?? []))
    : [];
  const authorIds = unique(records.flatMap((record) => record.authors?.map((user) => user.id) ?? []));
  const [sets, roles, revisionAuthors, tiers, mailing] = await Promise.all([
    urlSets(db, records, revisionAuthorIds),
    include.includes('authors.roles') ? rolesOfUsers(db, authorIds) : Promise.resolve(undefined),
    usersByIds(db, revisionAuthorIds),
    tiersIfIncluded(db, rows, view),
    include.includes('email') || include.includes('newsletter') ? loadPostMailing(db, rows) : undefined,
  ]);
  const ctx: PresentContext = {
    siteUrl: view.siteUrl,
    formats: view.formats,
    include,
    ...sets,
    ...(roles ? { roles } : {}),
    ...(tiers ? { tiers } : {}),
    ...(mailing ? { mailing } : {}),
  };
  const byId = new Map(revisionAuthors.map((user) => [user.id, user]));
  return records.map((record) => presentAdminPost(record, ctx, byId));
}

const CONTENT_SETTINGS = ['timezone', 'outbound_link_tagging', 'comments_enabled'] as const;

/** Content API posts or pages; every one is published, so each embedded tag and author has a published post. */
export async function contentPosts(db: ReadDb, rows: PostRow[], view: AdminView) {
  const include = view.include;
  const [records, settings, tiers] = await Promise.all([
    loadRecords(db, rows, { tags: include.includes('tags'), authors: include.includes('authors'), revisions: false }),
    readSettings(db, CONTENT_SETTINGS),
    tiersIfIncluded(db, rows, view),
  ]);
  const publishedTags = new Set(records.flatMap((record) => record.tags?.map((tag) => tag.id) ?? []));
  const publishedAuthors = new Set(records.flatMap((record) => record.authors?.map((user) => user.id) ?? []));
  const tiersPosts = view.member ? rows.filter((row) => row.visibility === 'tiers').map((row) => row.id) : [];
  const memberTiers = new Map(
    [...(tiersPosts.length > 0 ? await tiersOfPosts(db, tiersPosts) : new Map<string, TierRow[]>())].map(([id, list]) => [id, list.map((t) => t.id)]),
  );
  const ctx = {
    siteUrl: view.siteUrl,
    formats: view.formats,
    include,
    publishedTags,
    publishedAuthors,
    ...(tiers ? { tiers } : {}),
    ...(view.member ? { member: view.member, memberTiers } : {}),
    timezone: settings.get('timezone') || 'Etc/UTC',
    tagLinks: settings.get('outbound_link_tagging') !== 'false',
    commentsEnabled: (settings.get('comments_enabled') ?? 'off') !== 'off',
  };
  return records.map((record) => presentContentPost(record, ctx));
}
