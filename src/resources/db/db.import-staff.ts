import { objectId, randomHex } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { DUPLICATE, type ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

const BCRYPT_HASH = /^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/;

/**
 * Staff users, as Ghost's UsersImporter, with one deliberate difference: the bcrypt hash and the status
 * are kept, so people sign in with their old password (Ghost locks every imported user and gives them a
 * random password). A user whose e-mail exists here is not imported; references to them name the existing
 * user. The file's Owner becomes an Administrator (a site has one Owner); a user without a role, an Author.
 */
export async function importUsers(run: ImportRun): Promise<void> {
  const { db } = run.w;
  const users = run.rows('users');
  if (users.length === 0) return;
  const roleIds = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((role) => [role.name, role.id]));
  const fileRoles = new Map(run.rows('roles').map((role) => [String(role.id), String(role.name)]));
  const roleOfUser = new Map<string, string>();
  for (const link of run.rows('roles_users')) {
    const name = fileRoles.get(String(link.role_id));
    if (name) roleOfUser.set(String(link.user_id), name);
  }
  const existing = await db.selectFrom('users').select(['id', 'email', 'slug']).execute();
  const byEmail = new Map(existing.map((user) => [user.email.toLowerCase(), user.id]));
  const slugs = new Set(existing.map((user) => user.slug));

  const fresh: { row: Record<string, unknown>; role: string }[] = [];
  for (const user of users) {
    const email = typeof user.email === 'string' ? user.email.toLowerCase() : '';
    const known = byEmail.get(email);
    if (known) {
      run.map('users', user.id, known);
      run.problem(DUPLICATE, 'User', user);
      continue;
    }
    const id = objectId();
    run.map('users', user.id, id);
    byEmail.set(email, id);
    const slug = await generateSlug(typeof user.slug === 'string' && user.slug ? user.slug : String(user.name ?? 'user'), {
      kind: 'user',
      taken: async (candidate) => slugs.has(candidate),
    });
    slugs.add(slug);
    // Anything else becomes a value that is no bcrypt hash, so no password matches it (the column holds 60 characters).
    const password = typeof user.password === 'string' && BCRYPT_HASH.test(user.password) ? user.password : `!${randomHex(29)}`;
    const role = roleOfUser.get(String(user.id)) ?? 'Author';
    fresh.push({ row: { ...user, id, slug, password }, role: role === 'Owner' ? 'Administrator' : role });
  }
  // Authorship columns point at users of the file, so they are mapped once every user has its id here.
  const rows = fresh.map(({ row }) =>
    run.values(row, columnsOf('users'), 'User', {
      status: typeof row.status === 'string' && row.status ? row.status : 'active',
      visibility: typeof row.visibility === 'string' && row.visibility ? row.visibility : 'public',
      created_at: run.dateOr(row.created_at),
      created_by: run.userOf(row.created_by),
      updated_by: row.updated_by ? run.userOf(row.updated_by) : null,
    }),
  );
  await run.insert('users', rows);
  await run.insert(
    'roles_users',
    fresh.map(({ row, role }) => ({ id: objectId(), role_id: roleIds.get(role) ?? roleIds.get('Author')!, user_id: row.id as string })),
  );
}
