import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { filterWhere } from '../../filter/filter.js';
import { MEMBERS_BROWSE, MEMBERS_FILTER, MEMBERS_FILTER_RULES } from './members.browse.js';
import { deleteMembersById } from './members.service.js';

export interface BulkDeleteOptions {
  filter: string | null;
  search: string | null;
  /** `all=true`: every member, whatever the filter says. */
  all: boolean;
}

/**
 * `DELETE /members/?filter=…|search=…|all=true` (Ghost's `bulkDestroy`): the members the filter and search
 * select, all in one transaction; refused without either, so a bare DELETE cannot empty the list.
 */
export async function bulkDeleteMembers(ctx: Ctx, options: BulkDeleteOptions): Promise<number> {
  if (!options.filter && !options.search && !options.all) {
    throw errors.incorrectUsage('Cannot perform bulk delete without a filter or all=true');
  }
  return ctx.write(async ({ db, engine }) => {
    let query = db.selectFrom('members').select('members.id');
    if (!options.all) {
      const where = filterWhere(MEMBERS_FILTER, engine, options.filter ?? undefined, MEMBERS_FILTER_RULES);
      if (where) query = query.where(where);
      const search = MEMBERS_BROWSE.api.admin!.search!;
      if (options.search !== null) query = query.where((eb) => search(eb, options.search!));
    }
    const ids = (await query.execute()).map((row) => row.id);
    await deleteMembersById(db, ids);
    return ids.length;
  });
}
