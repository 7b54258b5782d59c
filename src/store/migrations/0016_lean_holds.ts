/**
 * A hold is written and deleted by every credited request, and read only by its trace id: its
 * time index is gone (expiry reads the few open holds whole, once a minute), and on SQLite the
 * table is keyed by the trace id itself (WITHOUT ROWID), one B-tree instead of two.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { onSqlite } from './dialect.js';
import { createHolds } from './holds-table.js';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('holds_time').execute();
    if (!onSqlite(db)) return;
    await createHolds(db, 'holds_keyed', true);
    await sql`insert into holds_keyed select trace_id, token_id, amount, created_at from holds`.execute(db);
    await db.schema.dropTable('holds').execute();
    await db.schema.alterTable('holds_keyed').renameTo('holds').execute();
  },
  async down(db: Kysely<unknown>) {
    if (onSqlite(db)) {
      await createHolds(db, 'holds_rowid', false);
      await sql`insert into holds_rowid select trace_id, token_id, amount, created_at from holds`.execute(db);
      await db.schema.dropTable('holds').execute();
      await db.schema.alterTable('holds_rowid').renameTo('holds').execute();
    }
    await db.schema.createIndex('holds_time').on('holds').column('created_at').execute();
  },
};
