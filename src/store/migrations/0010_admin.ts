/**
 * The operator's side: a token's role and whether it is disabled; what the request log needs
 * on each usage row (the error code, the task); daily usage rollups that outlive the raw rows;
 * the audit of admin actions; the channels an operator disabled and their last probe.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('tokens')
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('client'))
      .execute();
    await db.schema.alterTable('tokens').addColumn('disabled_at', 'bigint').execute();
    await db.schema.alterTable('usage').addColumn('error_code', 'text').execute();
    await db.schema.alterTable('usage').addColumn('task_id', 'text').execute();
    // The request log pages newest first, overall and per token; retention prunes by time.
    await db.schema.createIndex('usage_token_id').on('usage').columns(['token_id', 'id']).execute();
    await db.schema.createIndex('usage_time').on('usage').column('created_at').execute();
    await db.schema.createIndex('tasks_time').on('tasks').columns(['created_at', 'id']).execute();
    await db.schema
      .createTable('usage_daily')
      .addColumn('day', 'bigint', (c) => c.notNull())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('succeeded', 'bigint', (c) => c.notNull())
      .addColumn('failed', 'bigint', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('latency', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'token_id', 'operation', 'model'])
      .execute();
    await db.schema
      .createTable('markers')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('audit')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('detail', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('channel_states')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('disabled_at', 'bigint')
      .addColumn('disabled_by', 'text')
      .addColumn('probed_at', 'bigint')
      .addColumn('probe_ok', 'integer')
      .addColumn('probe_latency_ms', 'double precision')
      .addColumn('probe_detail', 'text')
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['channel_states', 'audit', 'markers', 'usage_daily'])
      await sql`drop table ${sql.table(table)}`.execute(db);
    for (const index of ['tasks_time', 'usage_time', 'usage_token_id'])
      await db.schema.dropIndex(index).execute();
    for (const column of ['task_id', 'error_code'])
      await db.schema.alterTable('usage').dropColumn(column).execute();
    for (const column of ['disabled_at', 'role'])
      await db.schema.alterTable('tokens').dropColumn(column).execute();
  },
};
