import type { ReadDb } from '../../db/read-db.js';
import { memberCreations } from './members.queries.js';

type Counts = { paid: number; free: number; comped: number };

/**
 * `GET /members/stats/count/` in Ghost's shape: the running count of members by status for each day
 * something changed, and the total. Ghost adds up its status-change events; those are not recorded
 * here, so each member counts from the day it was created, with the status it has now.
 */
export async function memberCountHistory(db: ReadDb) {
  const days = new Map<string, Counts>();
  const running: Counts = { paid: 0, free: 0, comped: 0 };
  for (const { status, created_at } of await memberCreations(db)) {
    running[status] += 1;
    days.set(created_at.toISOString().slice(0, 10), { ...running });
  }
  const data = [...days].map(([date, counts]) => ({ date, paid: counts.paid, free: counts.free, comped: counts.comped }));
  return { resource: 'members', total: running.paid + running.free + running.comped, data };
}
