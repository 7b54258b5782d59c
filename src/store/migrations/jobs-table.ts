/** The embedded queue's job table, from 0002 until 0014 moved its jobs into memory. */
import type { Kysely } from 'kysely';

export async function createJobTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['family', 'state', 'run_at']).execute();
}
