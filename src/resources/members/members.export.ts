import type { Ctx } from '../../ctx.js';
import { isoDate } from '../../content/dates.js';
import { filterWhere } from '../../filter/filter.js';
import { MEMBERS_BROWSE, MEMBERS_FILTER, MEMBERS_FILTER_RULES } from './members.browse.js';
import { exportChunk, type ExportRow } from './members.csv.js';

/** Members read per query: memory holds one page, whatever the number of members. */
const PAGE = 1000;

export interface ExportOptions {
  filter: string | null;
  search: string | null;
}

/**
 * `GET /members/upload/` (Ghost's `exportCSV`): every member the filter and search select (Ghost exports all of
 * them whatever `limit` says), as CSV text in pages read by id (keyset pagination, so each page costs the same
 * however far the export got). A bad filter throws here, before the first byte is sent.
 */
export function exportMembers(ctx: Ctx, options: ExportOptions): AsyncIterable<string> {
  const where = filterWhere(MEMBERS_FILTER, ctx.engine, options.filter ?? undefined, MEMBERS_FILTER_RULES);
  const search = MEMBERS_BROWSE.api.admin!.search!;
  return (async function* () {
    let after: string | null = null;
    let first = true;
    for (;;) {
      let query = ctx.db.selectFrom('members').select(['members.id', 'members.email', 'members.name', 'members.note', 'members.status', 'members.created_at']);
      if (where) query = query.where(where);
      if (options.search !== null) query = query.where((eb) => search(eb, options.search!));
      if (after !== null) query = query.where('members.id', '>', after);
      const members = await query.orderBy('members.id').limit(PAGE).execute();
      if (members.length === 0) return;
      const rows = await exportRows(ctx, members);
      yield exportChunk(rows, first);
      first = false;
      if (members.length < PAGE) return;
      after = members[members.length - 1]!.id;
    }
  })();
}

type Member = { id: string; email: string; name: string | null; note: string | null; status: string; created_at: Date };

/**
 * Ghost's export columns for one page: labels and tiers by name, `subscribed_to_emails` for any newsletter
 * subscription (archived newsletters included, as Ghost's exporter counts them), `complimentary_plan` for comped
 * members. There is no Stripe here, so no customer id; members are never soft-deleted, so no `deleted_at`.
 */
async function exportRows(ctx: Ctx, members: Member[]): Promise<ExportRow[]> {
  const ids = members.map((member) => member.id);
  const [labels, tiers, subscribed] = await Promise.all([
    ctx.db
      .selectFrom('members_labels')
      .innerJoin('labels', 'labels.id', 'members_labels.label_id')
      .select(['members_labels.member_id', 'labels.name'])
      .where('members_labels.member_id', 'in', ids)
      .orderBy('members_labels.member_id')
      .orderBy('members_labels.sort_order')
      .execute(),
    ctx.db
      .selectFrom('members_products')
      .innerJoin('products', 'products.id', 'members_products.product_id')
      .select(['members_products.member_id', 'products.name'])
      .where('members_products.member_id', 'in', ids)
      .orderBy('members_products.member_id')
      .orderBy('members_products.sort_order')
      .execute(),
    ctx.db.selectFrom('members_newsletters').select('member_id').distinct().where('member_id', 'in', ids).execute(),
  ]);
  const names = (rows: { member_id: string; name: string }[]) => {
    const out = new Map<string, string[]>();
    for (const row of rows) out.set(row.member_id, [...(out.get(row.member_id) ?? []), row.name]);
    return out;
  };
  const labelNames = names(labels);
  const tierNames = names(tiers);
  const subscribers = new Set(subscribed.map((row) => row.member_id));
  return members.map((member) => ({
    id: member.id,
    email: member.email,
    name: member.name,
    note: member.note,
    subscribed_to_emails: subscribers.has(member.id) ? 'true' : 'false',
    complimentary_plan: member.status === 'comped' ? 'true' : '',
    stripe_customer_id: null,
    created_at: isoDate(member.created_at),
    deleted_at: null,
    labels: (labelNames.get(member.id) ?? []).join(','),
    tiers: (tierNames.get(member.id) ?? []).join(','),
  }));
}
