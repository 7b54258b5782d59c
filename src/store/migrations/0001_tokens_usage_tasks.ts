/** Migration 0001: tokens usage tasks. */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('operations', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('credits', 'bigint')
      .addColumn('rate_per_second', 'double precision')
      .addColumn('max_concurrency', 'integer')
      .addColumn('webhook_secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createTable('usage')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('model', 'text')
      .addColumn('action', 'text')
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('latency_ms', 'double precision', (c) => c.notNull())
      .addColumn('trace_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('usage_token_time').on('usage').columns(['token_id', 'created_at']).execute();
    await db.schema
      .createTable('tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('trace_id', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('response', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('callback_url', 'text')
      .addColumn('callback_state', 'text')
      .addColumn('callback_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('callback_last_status', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('tasks_token_family_time')
      .on('tasks')
      .columns(['token_id', 'family', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['tasks', 'usage', 'tokens']) await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
