import Papa from 'papaparse';
import { parseMembersCsv } from '../members/members.csv.js';
import type { FileRow, ImportRun } from './db.import-run.js';
import { newslettersForCsv, tiersForCsv } from './db.import.queries.js';

/** Ghost's members CSV columns (its export's, and `newsletters`, which a file may add to name subscriptions). */
const CSV_MAPPING: Readonly<Record<string, string>> = {
  id: 'id',
  email: 'email',
  name: 'name',
  note: 'note',
  subscribed_to_emails: 'subscribed',
  complimentary_plan: 'complimentary_plan',
  stripe_customer_id: 'stripe_customer_id',
  created_at: 'created_at',
  labels: 'labels',
  tiers: 'tiers',
  newsletters: 'newsletters',
};

const names = (cell: unknown) =>
  typeof cell === 'string'
    ? cell
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : [];

/**
 * The members of a Ghost 6 archive's `members.csv`, turned into the export's member tables before they are
 * imported (db.import-members.ts), for a file whose JSON has none (Ghost's plain export leaves them out). Runs
 * after tiers and newsletters are imported, so names resolve to what is here now: labels by name, tiers by
 * name, newsletters by name when a `newsletters` column names them, else every newsletter new members join.
 * Status: comped with `complimentary_plan` (the named tiers, else the default paid tier), paid with a Stripe
 * customer (whose link is not kept: no Stripe connection here), else free.
 */
export async function membersFromCsv(run: ImportRun, csv: string): Promise<void> {
  const rows = await parseMembersCsv(csv, CSV_MAPPING, []);
  if (rows.length === 0) return;
  reportOtherColumns(run, csv);
  const { db } = run.w;
  const newsletters = await newslettersForCsv(db);
  const tiers = await tiersForCsv(db);
  // The ids here stand in for file ids (`here:<id>`), so the member tables below read like the export's.
  for (const row of newsletters) run.map('newsletters', `here:${row.id}`, row.id);
  for (const row of tiers) run.map('products', `here:${row.id}`, row.id);
  const newsletterByName = new Map(newsletters.map((row) => [row.name.toLowerCase(), `here:${row.id}`]));
  const tierByName = new Map(tiers.map((row) => [row.name.toLowerCase(), `here:${row.id}`]));
  const signup = newsletters.filter((row) => row.status === 'active' && row.subscribe_on_signup).map((row) => `here:${row.id}`);
  const defaultTier = tiers.find((row) => row.type === 'paid' && row.active);

  const data = run.data as Record<string, FileRow[]>;
  const labels = new Map<string, FileRow>();
  const members: FileRow[] = [];
  const links = { members_labels: [] as FileRow[], members_newsletters: [] as FileRow[], members_products: [] as FileRow[] };
  const unknown = { tiers: new Set<string>(), newsletters: new Set<string>() };
  let stripe = 0;
  let noEmail = 0;
  for (const [index, row] of rows.entries()) {
    if (typeof row.email !== 'string' || !row.email.trim()) {
      noEmail++;
      continue;
    }
    const id = typeof row.id === 'string' && row.id ? row.id : `csv-row-${index}`;
    const comped = row.complimentary_plan === true;
    if (row.stripe_customer_id) stripe++;
    members.push({
      id,
      email: row.email,
      name: row.name ?? null,
      note: row.note ?? null,
      status: comped ? 'comped' : row.stripe_customer_id ? 'paid' : 'free',
      created_at: row.created_at ?? null,
    });
    row.labels.forEach((label, sort_order) => {
      const key = String(label.name).trim().toLowerCase();
      if (!key) return;
      if (!labels.has(key)) labels.set(key, { id: `csv-label-${labels.size}`, name: String(label.name).trim() });
      links.members_labels.push({ member_id: id, label_id: labels.get(key)!.id, sort_order });
    });
    const named = names(row.newsletters);
    const subscribed =
      row.subscribed === false
        ? []
        : named.length > 0
          ? named.map((name) => newsletterByName.get(name.toLowerCase()) ?? unknownName(unknown.newsletters, name))
          : signup;
    for (const newsletter of subscribed) if (newsletter) links.members_newsletters.push({ member_id: id, newsletter_id: newsletter });
    if (comped || row.stripe_customer_id) {
      const tierIds = names(row.tiers).map((name) => tierByName.get(name.toLowerCase()) ?? unknownName(unknown.tiers, name));
      if (tierIds.length === 0 && comped && defaultTier) tierIds.push(`here:${defaultTier.id}`);
      tierIds.forEach((tier, sort_order) => tier && links.members_products.push({ member_id: id, product_id: tier, sort_order }));
    }
  }
  data.members = members;
  data.labels = [...labels.values()];
  Object.assign(data, links);
  if (noEmail > 0) run.notImported('rows of "members.csv" without an e-mail address', noEmail, 'A member is known by an address.', 'members');
  if (stripe > 0)
    run.notImported(
      'Stripe customers of "members.csv"',
      stripe,
      'Stripe records are not kept: this site has no Stripe connection. The members keep their paid status and tiers.',
      'members',
    );
  for (const [what, set] of Object.entries(unknown)) {
    if (set.size > 0)
      run.notImported(
        `${what} named in "members.csv" and not found here: ${[...set].join(', ')}`,
        set.size,
        'Members keep their other subscriptions and tiers.',
        'members',
      );
  }
}

function unknownName(set: Set<string>, name: string): null {
  set.add(name);
  return null;
}

/** Why a column of Ghost's members CSV that is not read here is left (`deleted_at` is always empty in Ghost's). */
const OTHER_COLUMNS: Record<string, string> = {
  gift_id: 'Gift subscriptions are not built here.',
};

/** Columns of the file the import does not read (Ghost 6's gifts, a site's member metafields), when they hold values. */
function reportOtherColumns(run: ImportRun, csv: string): void {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  for (const field of parsed.meta.fields ?? []) {
    if (Object.hasOwn(CSV_MAPPING, field)) continue;
    const count = parsed.data.filter((row) => typeof row[field] === 'string' && row[field] !== '').length;
    if (count > 0) {
      run.notImported(`column "${field}" of "members.csv"`, count, OTHER_COLUMNS[field] ?? 'This site has no such member field.', 'members');
    }
  }
}
