// Opens a SQLite file for the development scripts (bench and fixture capture) with the library the service itself
// uses on this Node (src/db/sqlite-driver.ts): `node:sqlite` on Node 22.16+, 23.11+ and 24+, where better-sqlite3 is
// not installed (and would abort the process on 24), better-sqlite3 before that. The handle has the part of
// better-sqlite3's shape the scripts use, `reader` included, so Kysely's SqliteDialect takes it too.
import { createRequire } from 'node:module';

function nodeSqliteUsable(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
}

/** `{ readonly }` opens without writing; the file must then exist. */
export function openSqliteFile(file, { readonly = false } = {}) {
  const require = createRequire(import.meta.url);
  if (!nodeSqliteUsable()) {
    const Database = require('better-sqlite3');
    return new Database(file, { readonly, fileMustExist: readonly });
  }
  const { DatabaseSync } = require('node:sqlite');
  const db = new DatabaseSync(file, { readOnly: readonly });
  // node:sqlite's rows have no prototype; the scripts compare and print them as plain objects.
  const plain = (row) => (row === undefined ? row : { ...row });
  // better-sqlite3 (and so Kysely, which passes one array) also takes the values as a single array.
  const values = (parameters) => (parameters.length === 1 && Array.isArray(parameters[0]) ? parameters[0] : parameters);
  return {
    exec: (text) => db.exec(text),
    close: () => db.close(),
    prepare(text) {
      const statement = db.prepare(text);
      return {
        reader: statement.columns().length > 0,
        all: (...parameters) => statement.all(...values(parameters)).map(plain),
        get: (...parameters) => plain(statement.get(...values(parameters))),
        run: (...parameters) => statement.run(...values(parameters)),
        *iterate(...parameters) {
          for (const row of statement.iterate(...values(parameters))) yield plain(row);
        },
      };
    },
  };
}
