import type { Ctx } from '../../ctx.js';
import type { LabelRow } from '../../db/schema.js';
import { memberCountsOfLabels } from './labels.queries.js';
import { presentLabel } from './labels.present.js';

/** Load and present: labels with what `include` asks for loaded (`count.members`), as every route shows them. */
export async function presentLabels({ db }: Ctx, rows: LabelRow[], include: readonly string[]) {
  const counts = include.includes('count.members')
    ? await memberCountsOfLabels(
        db,
        rows.map((row) => row.id),
      )
    : null;
  return rows.map((row) => presentLabel(row, counts ? { members: counts.get(row.id) ?? 0 } : undefined));
}
