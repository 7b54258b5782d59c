/**
 * Redemption codes: an admin makes a batch of codes worth some credits each, a client redeems one
 * onto its balance. Codes are kept as hashes only; each counts its uses left, taken by one
 * conditional UPDATE so that concurrent redemptions never use a code more often than it allows.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('code_batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('uses_per_code', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('note', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('disabled_at', 'bigint')
      .execute();
    await db.schema
      .createTable('codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('uses_left', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('codes_batch').on('codes').column('batch_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('codes').execute();
    await db.schema.dropTable('code_batches').execute();
  },
};
