// A database of its own for a benchmark run on a PostgreSQL or MariaDB server (BENCH_DATABASE_URL and the like).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import mysql from 'mysql2/promise';

/** Creates `quire_bench_<random>` on the server `serverUrl` names: its URL, and `drop()` for the end of the run. */
export async function freshDatabase(serverUrl) {
  const name = `quire_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  // One connection per statement, to the server's own database (the bench database cannot be dropped from inside).
  if (url.protocol.startsWith('postgres')) {
    const run = async (statement) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(statement);
      await client.end();
    };
    await run(`CREATE DATABASE ${name}`);
    return { url: target.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const options = { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  const run = async (statement) => {
    const client = await mysql.createConnection(options);
    await client.query(statement);
    await client.end();
  };
  await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  return { url: target.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name}`) };
}
