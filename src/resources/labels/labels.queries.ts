import { sql, type ExpressionBuilder, type Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { Database, LabelRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { LABEL_FIELDS } from './labels.fields.js';

const LABEL_COLUMNS = columnsOf(LABEL_FIELDS);

export function findLabel(db: ReadDb, by: { id: string } | { slug: string }): Promise<LabelRow | undefined> {
  const query = db.selectFrom('labels').select(LABEL_COLUMNS);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).executeTakeFirst();
}

/**
 * Another label with this name, compared without case: MySQL's unique index (Ghost's production engine)
 * already treats `VIP` and `vip` as one name, and every engine here keeps the same rule.
 */
export function findLabelNamed(db: ReadDb, engine: Engine, name: string, exceptId?: string): Promise<Pick<LabelRow, 'id' | 'name'> | undefined> {
  let query = db
    .selectFrom('labels')
    .select(['id', 'name'])
    .where(engine.text.lower(sql.ref('name')), '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function labelSlugTaken(db: ReadDb, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('labels').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A label's `count.members` as a correlated subquery, so browse can order by it. */
export function labelMemberCount(eb: ExpressionBuilder<Database, 'labels'>) {
  return eb
    .selectFrom('members_labels')
    .innerJoin('members', 'members.id', 'members_labels.member_id')
    .whereRef('members_labels.label_id', '=', 'labels.id')
    .select(sql<number>`count(members.id)`.as('n'));
}

export async function memberCountsOfLabels(db: ReadDb, labelIds: readonly string[]): Promise<Map<string, number>> {
  if (labelIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('labels')
    .select(['labels.id', (eb) => labelMemberCount(eb).as('n')])
    .where('labels.id', 'in', labelIds)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.n)]));
}

export async function insertLabelRow(db: Db, row: LabelRow): Promise<void> {
  await db.insertInto('labels').values(row).execute();
}

export async function updateLabel(db: Db, id: string, values: Updateable<Database['labels']>): Promise<void> {
  await db.updateTable('labels').set(values).where('id', '=', id).execute();
}

/** Deletes a label and takes it off every member. */
export async function deleteLabelRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('members_labels').where('label_id', '=', id).execute();
  await db.deleteFrom('labels').where('id', '=', id).execute();
}
