import type { Ctx, WriteCtx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { filterWhere } from '../../filter/filter.js';
import { MEMBERS_BROWSE, MEMBERS_FILTER, MEMBERS_FILTER_RULES } from './members.browse.js';
import { deleteMembersById } from './members.service.js';

/** Which members a bulk action works on: `?filter=`, `?search=`, or `?all=true` for every member. */
export interface BulkSelection {
  filter: string | null;
  search: string | null;
  /** `all=true`: every member, whatever the filter says. */
  all: boolean;
}

/** Ghost refuses a bulk action without a selection, so a bare request cannot reach every member. */
export function assertSelection(selection: BulkSelection, action: 'bulk delete' | 'bulk edit'): void {
  if (!selection.filter && !selection.search && !selection.all) {
    throw errors.incorrectUsage(`Cannot perform ${action} without a filter or all=true`);
  }
}

/** The ids of the selected members, read inside the action's transaction. */
export async function selectedMemberIds(w: WriteCtx, selection: BulkSelection): Promise<string[]> {
  let query = w.db.selectFrom('members').select('members.id');
  if (!selection.all) {
    const where = filterWhere(MEMBERS_FILTER, w.engine, selection.filter ?? undefined, MEMBERS_FILTER_RULES);
    if (where) query = query.where(where);
    const search = MEMBERS_BROWSE.api.admin!.search!;
    if (selection.search !== null) query = query.where((eb) => search(eb, selection.search!));
  }
  return (await query.execute()).map((row) => row.id);
}

/**
 * `DELETE /members/?filter=…|search=…|all=true` (Ghost's `bulkDestroy`): the members the filter and search
 * select, all in one transaction. No `member.deleted` events: Ghost deletes them below its model events.
 */
export async function bulkDeleteMembers(ctx: Ctx, selection: BulkSelection): Promise<number> {
  assertSelection(selection, 'bulk delete');
  return ctx.write(async (w) => {
    const ids = await selectedMemberIds(w, selection);
    await deleteMembersById(w.db, ids);
    return ids.length;
  });
}
