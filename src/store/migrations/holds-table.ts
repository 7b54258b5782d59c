/** The holds table as 0008 made it, under `name`; `keyed`: WITHOUT ROWID (SQLite only). */
import { sql, type Kysely } from 'kysely';

export async function createHolds(db: Kysely<unknown>, name: string, keyed: boolean): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('trace_id', 'text', (c) => c.primaryKey())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull());
  if (keyed) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
}
