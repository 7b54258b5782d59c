/**
 * The audit names its actor by token id as well as name: names are reused after a revocation.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit').addColumn('actor_id', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('audit').dropColumn('actor_id').execute();
  },
};
