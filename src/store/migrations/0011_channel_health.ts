/**
 * Channel health: a channel disabled by its own failures (and why), until a probe succeeds;
 * its probes' consecutive failures, which disable it when they reach the configured count.
 * The tokens whose low balance the operator was alerted to, so that each fall alerts once.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('channel_states').addColumn('auto_disabled_at', 'bigint').execute();
    await db.schema.alterTable('channel_states').addColumn('auto_reason', 'text').execute();
    await db.schema
      .alterTable('channel_states')
      .addColumn('probe_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('balance_alerts')
      .addColumn('token_id', 'text', (c) => c.primaryKey())
      .addColumn('alerted_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('balance_alerts').execute();
    for (const column of ['auto_disabled_at', 'auto_reason', 'probe_failures'])
      await db.schema.alterTable('channel_states').dropColumn(column).execute();
  },
};
