/** Migration 0002: task lifecycle. */
import { sql, type Kysely, type Migration } from 'kysely';
import { createJobTable } from './jobs-table.js';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const columns: [string, 'text' | 'bigint'][] = [
      ['model', 'text'],
      ['action', 'text'],
      ['input', 'text'],
      ['progress', 'text'],
      ['error', 'text'],
      ['deadline_at', 'bigint'],
      ['updated_at', 'bigint'],
      ['idempotency_key', 'text'],
      ['request_hash', 'text'],
      ['credits_state', 'text'],
    ];
    for (const [name, type] of columns) await db.schema.alterTable('tasks').addColumn(name, type).execute();
    await db.schema
      .createIndex('tasks_idempotency')
      .on('tasks')
      .columns(['token_id', 'idempotency_key'])
      .unique()
      .execute();
    await createJobTable(db);
    await db.schema
      .createTable('deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_until', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .execute();
    await db.schema.createIndex('deliveries_due').on('deliveries').columns(['state', 'next_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['deliveries', 'jobs']) await sql`drop table ${sql.table(table)}`.execute(db);
    await db.schema.dropIndex('tasks_idempotency').execute();
  },
};
