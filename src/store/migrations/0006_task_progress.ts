/** Migration 0006: task progress. */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tasks').addColumn('progress_fraction', 'double precision').execute();
    await db.schema.alterTable('tasks').addColumn('progress_stage', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('tasks').dropColumn('progress_stage').execute();
    await db.schema.alterTable('tasks').dropColumn('progress_fraction').execute();
  },
};
