/**
 * One usage row per request: a task's terminal move finds its request's row by trace id, and
 * the answer's record fills in that row rather than adding a second one.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('usage_trace').on('usage').column('trace_id').unique().execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('usage_trace').execute();
  },
};
