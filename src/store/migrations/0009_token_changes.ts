/**
 * When a token last changed (revoked, its secret rotated, its limits edited): every node polls
 * the latest, and forgets the tokens it has cached when it moved.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tokens').addColumn('changed_at', 'bigint').execute();
    await db.schema.createIndex('tokens_changed').on('tokens').column('changed_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('tokens_changed').execute();
    await db.schema.alterTable('tokens').dropColumn('changed_at').execute();
  },
};
