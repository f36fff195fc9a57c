import { readFileSync } from 'node:fs';
import type { TestSite, Caller } from './test-site.js';
import { OWNER } from './support.js';
import { themeZip, zipOf } from './uploads.js';

/** Exports of a Ghost 5.130.6 site seeded by test/fixtures/db/seed-peer.mjs (default tables; with members). */
export const PEER_EXPORT = readFileSync(new URL('./fixtures/db/peer-export.json', import.meta.url), 'utf8');
export const PEER_EXPORT_MEMBERS = readFileSync(new URL('./fixtures/db/peer-export-members.json', import.meta.url), 'utf8');
/** A Ghost 6.65 export with its members (`GET /db/?include=members,…` of a Ghost 6 site; /work/shared/fixtures/ghost6). */
export const GHOST6_EXPORT = readFileSync(new URL('./fixtures/db/ghost6-export.json', import.meta.url), 'utf8');
/** The second staff user the seeding script wrote into the peer, with the password it set. */
export const PEER_STAFF = { email: 'editor@example.com', password: 'Editor-pass-2026!' };

export type Row = Record<string, unknown>;
export type ExportData = Record<string, Row[]>;
export const dataOf = (text: string): ExportData => (JSON.parse(text) as { db: [{ data: ExportData }] }).db[0].data;

/** `POST /db/` with `text` as the uploaded `.json`. */
export function importJson(t: TestSite, text: string, as?: Caller, name = 'export.json') {
  return t.admin.upload('/db/', { importfile: { name, type: 'application/json', data: text } }, as);
}

/** Rows per table of the tables an import writes, and the settings' values: enough to see any change. */
export async function snapshot(t: TestSite): Promise<Record<string, unknown>> {
  const tables = [
    'posts',
    'posts_meta',
    'posts_tags',
    'posts_authors',
    'posts_products',
    'tags',
    'users',
    'roles_users',
    'products',
    'newsletters',
    'members',
    'labels',
    'members_labels',
    'members_newsletters',
    'members_products',
    'outbox',
    'actions',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const rows = await t.db.selectFrom(table).select('id').orderBy('id').execute();
    out[table] = rows.map((row) => row.id);
  }
  out.settings = await t.db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
  return out;
}

/** Rows with ids replaced by what they name (slugs, e-mails, uuids), so two sites' exports compare. */
export function comparable(data: ExportData): Record<string, unknown[]> {
  const name = (table: string, key: string) => new Map(data[table]!.map((row) => [row.id, row[key]]));
  const post = name('posts', 'uuid');
  const tag = name('tags', 'slug');
  const user = name('users', 'email');
  const tier = name('products', 'slug');
  const newsletter = name('newsletters', 'slug');
  const member = name('members', 'email');
  const label = name('labels', 'slug');
  const role = name('roles', 'name');
  const benefit = name('benefits', 'slug');
  const importTag = (id: unknown) => String(tag.get(id)).startsWith('hash-import-');
  const strip = ({ id: _id, ...row }: Row) => row;
  const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    posts: sorted(data.posts!.map((row) => ({ ...strip(row), newsletter_id: newsletter.get(row.newsletter_id) ?? null }))),
    posts_meta: sorted(data.posts_meta!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id) }))),
    posts_tags: sorted(
      data.posts_tags!.filter((row) => !importTag(row.tag_id)).map((row) => ({ ...strip(row), post_id: post.get(row.post_id), tag_id: tag.get(row.tag_id) })),
    ),
    posts_authors: sorted(data.posts_authors!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id), author_id: user.get(row.author_id) }))),
    posts_products: sorted(data.posts_products!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id), product_id: tier.get(row.product_id) }))),
    tags: sorted(data.tags!.filter((row) => !importTag(row.id)).map(strip)),
    // Each site keeps its own Owner (the file's, with the same e-mail, is matched with it).
    users: sorted(data.users!.filter((row) => row.email !== OWNER.email).map(strip)),
    roles_users: sorted(data.roles_users!.map((row) => ({ user: user.get(row.user_id), role: role.get(row.role_id) }))),
    // The free tier, the default tier and newsletter are each site's own (matched by slug): compared without their timestamps.
    products: sorted(data.products!.map(({ created_at: _c, updated_at: _u, ...row }) => strip(row))),
    newsletters: sorted(data.newsletters!.map(({ uuid: _uuid, created_at: _c, updated_at: _u, ...row }) => strip(row))),
    members: sorted(data.members!.map(({ transient_id: _transient, ...row }) => strip(row))),
    labels: sorted(data.labels!.map(strip)),
    members_labels: sorted(data.members_labels!.map((row) => ({ ...strip(row), member_id: member.get(row.member_id), label_id: label.get(row.label_id) }))),
    members_newsletters: sorted(
      data.members_newsletters!.map((row) => ({ member_id: member.get(row.member_id), newsletter_id: newsletter.get(row.newsletter_id) })),
    ),
    members_products: sorted(
      data.members_products!.map((row) => ({ ...strip(row), member_id: member.get(row.member_id), product_id: tier.get(row.product_id) })),
    ),
    benefits: sorted(data.benefits!.map(({ created_at: _c, updated_at: _u, ...row }) => strip(row))),
    products_benefits: sorted(
      data.products_benefits!.map((row) => ({ ...strip(row), product_id: tier.get(row.product_id), benefit_id: benefit.get(row.benefit_id) })),
    ),
    offers: sorted(data.offers!.map((row) => ({ ...strip(row), product_id: tier.get(row.product_id) }))),
    snippets: sorted(data.snippets!.map(strip)),
    settings: sorted(data.settings!.filter((row) => !['core', 'theme'].includes(row.group as string)).map(({ key, value }) => ({ key, value }))),
  };
}

/** Ghost 6's members.csv columns (`toExportCsvRow`), written from the members of the export. */
export function ghost6MembersCsv(): string {
  const file = dataOf(GHOST6_EXPORT);
  const header = 'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers,gift_id';
  const byId = (table: string) => new Map(file[table]!.map((row) => [row.id, row]));
  const [labels, tiers] = [byId('labels'), byId('products')];
  const quote = (cell: unknown) =>
    cell === null || cell === undefined ? '' : /[",\n]/.test(String(cell)) ? `"${String(cell).replace(/"/g, '""')}"` : String(cell);
  const lines = file.members!.map((member) => {
    const own = (table: string) => file[table]!.filter((link) => link.member_id === member.id);
    return [
      member.id,
      member.email,
      member.name,
      member.note,
      own('members_newsletters').length > 0 ? 'true' : 'false',
      member.status === 'comped' ? 'true' : '',
      '',
      new Date(`${String(member.created_at).replace(' ', 'T')}Z`).toISOString(),
      '',
      own('members_labels')
        .map((link) => labels.get(link.label_id)!.name)
        .join(','),
      own('members_products')
        .map((link) => tiers.get(link.product_id)!.name)
        .join(','),
      '',
    ]
      .map(quote)
      .join(',');
  });
  return [header, ...lines].join('\r\n');
}

/**
 * Ghost 6's archive zip of the same site: `export.json` without the member tables (Ghost's plain export has
 * none), `members.csv`, its themes (`fieldtheme`, active, and `quire`, the built-in theme's name, refused), `routes.yaml`,
 * `redirects.yaml` and `post-analytics.csv`.
 */
export async function ghost6Archive(): Promise<Buffer> {
  const memberTables = ['members', 'labels', 'members_labels', 'members_newsletters', 'members_products'];
  const data = Object.fromEntries(Object.entries(dataOf(GHOST6_EXPORT)).filter(([table]) => !memberTables.includes(table)));
  data.settings = data.settings!.map((s) => (s.key === 'active_theme' ? { ...s, value: 'fieldtheme' } : s));
  return zipOf([
    { name: 'export.json', data: JSON.stringify({ db: [{ meta: { version: '6.65.0' }, data }] }) },
    { name: 'members.csv', data: ghost6MembersCsv() },
    { name: 'themes/fieldtheme.zip', data: await themeZip('fieldtheme'), stored: true },
    { name: 'themes/quire.zip', data: await themeZip('quire'), stored: true },
    { name: 'routes.yaml', data: 'routes:\ncollections:\n  /:\n    permalink: /{slug}/\n' },
    { name: 'redirects.yaml', data: '301:\n  /old/: /new/\n' },
    { name: 'post-analytics.csv', data: 'post_id,views\n' },
  ]);
}
