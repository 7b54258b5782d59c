/**
 * Console sessions in the database, so that every node and a restarted one know them.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('console_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('console_sessions').execute();
  },
};
