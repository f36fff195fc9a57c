import { objectId, uuid } from '../../db/ids.js';
import { slugify } from '../../content/slugs.js';
import { DUPLICATE, type FileRow, type ImportRun } from './db.import-run.js';
import { fileDate } from './db.values.js';
import { columnsOf } from './db.tables.js';

/**
 * Members with their labels, newsletter subscriptions and tiers: beyond Ghost, whose importer passes
 * members over (they come with `GET /db/?include=members,labels,members_labels,members_newsletters,members_products`).
 * A member whose e-mail exists here is not imported; a label whose slug exists here is shared. Stripe
 * customers and subscriptions are not carried over (no Stripe connection here): a paid member keeps the
 * status and tiers of the file.
 */
export async function importMembers(run: ImportRun): Promise<void> {
  const members = run.rows('members');
  await importLabels(run);
  if (members.length === 0) return;
  const { db } = run.w;
  const emails = new Set((await db.selectFrom('members').select('email').execute()).map((m) => m.email.toLowerCase()));
  const fresh: Record<string, unknown>[] = [];
  for (const member of members) {
    const email = typeof member.email === 'string' ? member.email.toLowerCase() : '';
    if (emails.has(email)) {
      run.problem(DUPLICATE, 'Member', member);
      continue;
    }
    emails.add(email);
    const id = objectId();
    run.map('members', member.id, id);
    fresh.push(
      run.values(member, columnsOf('members'), 'Member', {
        id,
        // Unsubscribe links of e-mails already sent carry the uuid: it is kept; sign-in state is not.
        uuid: typeof member.uuid === 'string' && member.uuid ? member.uuid : uuid(),
        transient_id: uuid(),
        created_at: run.dateOr(member.created_at),
        created_by: run.userOf(member.created_by),
        updated_by: member.updated_by ? run.userOf(member.updated_by) : null,
      }),
    );
  }
  await run.insert('members', fresh);
  await run.insert('members_labels', links(run, 'members_labels', 'label_id', 'labels', true));
  await run.insert('members_newsletters', links(run, 'members_newsletters', 'newsletter_id', 'newsletters', false));
  await run.insert(
    'members_products',
    links(run, 'members_products', 'product_id', 'products', true, (link) => ({ expiry_at: fileDate(link.expiry_at) })),
  );
}

async function importLabels(run: ImportRun): Promise<void> {
  const labels = run.rows('labels');
  if (labels.length === 0) return;
  const bySlug = new Map((await run.w.db.selectFrom('labels').select(['id', 'slug']).execute()).map((label) => [label.slug, label.id]));
  const fresh: Record<string, unknown>[] = [];
  for (const label of labels) {
    const slug = typeof label.slug === 'string' && label.slug ? label.slug : slugify(String(label.name ?? ''));
    const known = bySlug.get(slug);
    if (known) {
      run.map('labels', label.id, known);
      continue;
    }
    const id = objectId();
    run.map('labels', label.id, id);
    bySlug.set(slug, id);
    fresh.push(
      run.values(label, columnsOf('labels'), 'Label', {
        id,
        slug,
        created_at: run.dateOr(label.created_at),
        created_by: run.userOf(label.created_by),
        updated_by: label.updated_by ? run.userOf(label.updated_by) : null,
      }),
    );
  }
  await run.insert('labels', fresh);
}

/** A member link table of the file, with both ends mapped; links to rows not imported nor matched are dropped. */
function links(
  run: ImportRun,
  table: string,
  key: string,
  target: string,
  sorted: boolean,
  extra: (link: FileRow) => Record<string, unknown> = () => ({}),
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const link of run.rows(table)) {
    const member = run.idOf('members', link.member_id);
    const other = run.idOf(target, link[key]);
    if (!member || !other || seen.has(`${member}:${other}`)) continue;
    seen.add(`${member}:${other}`);
    out.push({ id: objectId(), member_id: member, [key]: other, ...(sorted ? { sort_order: Number(link.sort_order ?? 0) } : {}), ...extra(link) });
  }
  return out;
}
