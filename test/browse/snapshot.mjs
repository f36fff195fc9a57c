// Reads back what the reference Ghost stored after the import, straight from its SQLite file, so our
// database is seeded with the very same rows (ids, rendered html/plaintext, timestamps, the importer's
// `#Import …` tag, locked users).
import { homedir } from 'node:os';
import path from 'node:path';

import { openSqliteFile } from '../../scripts/sqlite-file.mjs';

const TABLES = {
  users: null,
  roles_users: null,
  tags: null,
  posts: null,
  posts_meta: null,
  posts_tags: null,
  posts_authors: null,
};

/** Ghost's SQLite stores `YYYY-MM-DD HH:MM:SS` (UTC) and 0/1; the snapshot keeps ISO strings and booleans. */
function normalise(table, row, booleanColumns) {
  const out = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) && /(_at|last_seen)$/.test(key)) {
      out[key] = `${value.replace(' ', 'T')}.000Z`;
    } else if (booleanColumns.has(key)) {
      out[key] = value === null ? null : Boolean(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function snapshotPeer(port) {
  const file = path.join(process.env.GHOST_PEER_HOME ?? path.join(homedir(), '.cache/ghost-peer'), 'run', String(port), 'content/data/ghost.db');
  const db = openSqliteFile(file, { readonly: true });
  try {
    const roles = new Map(
      db
        .prepare('select id, name from roles')
        .all()
        .map((r) => [r.id, r.name]),
    );
    const out = {};
    for (const table of Object.keys(TABLES)) {
      const columns = db.prepare(`pragma table_info(${table})`).all();
      const booleans = new Set(columns.filter((c) => /bool/i.test(c.type)).map((c) => c.name));
      const rows = db
        .prepare(`select * from ${table} order by rowid`)
        .all()
        .map((row) => normalise(table, row, booleans));
      out[table] = table === 'roles_users' ? rows.map(({ role_id, ...rest }) => ({ ...rest, role: roles.get(role_id) })) : rows;
    }
    return out;
  } finally {
    db.close();
  }
}
