import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from './connect.js';

describe('the embedded SQLite connection', () => {
  it('lets other work run after a long statement, inside a transaction too, and never after a quick one', async () => {
    const { db, close } = connect('sqlite::memory:');
    try {
      const order: string[] = [];
      // A recursive count long enough to pass the 20 ms bound on any machine.
      const longStatement = sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS c FROM n`;
      await db.transaction().execute(async (trx) => {
        setImmediate(() => order.push('other work'));
        await sql`SELECT 1`.execute(trx);
        order.push('quick statement');
        await longStatement.execute(trx);
        order.push('long statement');
        await sql`SELECT 1`.execute(trx);
        order.push('next statement');
      });
      expect(order).toEqual(['quick statement', 'other work', 'long statement', 'next statement']);
    } finally {
      await close();
    }
  });
});
