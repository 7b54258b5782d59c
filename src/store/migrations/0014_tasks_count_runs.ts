/**
 * The embedded queue keeps its jobs in memory, the tasks table behind them: a task counts its
 * own runs, and the job table goes. A task live when this runs is queued again at start.
 */
import { type Kysely, type Migration } from 'kysely';
import { createJobTable } from './jobs-table.js';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('tasks')
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.dropTable('jobs').execute();
  },
  async down(db: Kysely<unknown>) {
    await createJobTable(db);
    await db.schema.alterTable('tasks').dropColumn('runs').execute();
  },
};
