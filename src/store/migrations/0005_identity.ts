/** Migration 0005: identity. */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('identities')
      .addColumn('lookup', 'text', (c) => c.primaryKey())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('field_keys')
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('field_keys_pk', ['token_id', 'version'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['field_keys', 'identities']) await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
