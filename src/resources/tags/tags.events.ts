import type { WriteCtx } from '../../ctx.js';
import type { TagRow } from '../../db/schema.js';
import { tagUrl } from '../../content/urls.js';
import { tagsWithPublishedPosts } from './tags.queries.js';
import { presentAdminTag } from './tags.present.js';
import { anyWebhookListens } from '../../events/listeners.js';
import { previousValues, type Snapshot } from '../../events/names.js';

/**
 * Ghost's tag webhook events, recorded in the write's transaction: `tag.added` (also for tags a post write
 * creates), `tag.edited`, `tag.deleted`, with the payload `{tag: {current, previous}}` in the Admin tag shape.
 */

/** Whether any webhook listens to tag events (otherwise nothing is serialised). */
const listened = (w: WriteCtx) => anyWebhookListens(w.db, ['tag.added', 'tag.edited', 'tag.deleted']);

async function snapshot(w: WriteCtx, row: TagRow): Promise<Snapshot> {
  const published = await tagsWithPublishedPosts(w.db, [row.id]);
  return presentAdminTag(row, w.site.url, { url: tagUrl(w.site.url, row.slug, row.visibility === 'public' && published.has(row.id)) });
}

function record(w: WriteCtx, name: `tag.${'added' | 'edited' | 'deleted'}`, id: string, current: Snapshot, previous: Snapshot): void {
  w.events.record(name, { tag: { current, previous } }, { type: 'tag', id });
}

export async function recordTagAdded(w: WriteCtx, row: TagRow): Promise<void> {
  if (await listened(w)) record(w, 'tag.added', row.id, await snapshot(w, row), {});
}

/** `previous` holds the values of the keys this save changed, as Ghost sends it. */
export async function recordTagEdited(w: WriteCtx, before: TagRow, after: TagRow): Promise<void> {
  if (!(await listened(w))) return;
  const [was, is] = [await snapshot(w, before), await snapshot(w, after)];
  record(w, 'tag.edited', after.id, is, previousValues(was, is));
}

/** Before the delete: `current` is empty and `previous` the whole tag without its URL, as in Ghost. */
export async function recordTagDeleted(w: WriteCtx, before: TagRow): Promise<void> {
  if (!(await listened(w))) return;
  const { url: _url, ...previous } = await snapshot(w, before);
  record(w, 'tag.deleted', before.id, {}, previous);
}
