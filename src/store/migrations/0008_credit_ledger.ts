/**
 * Every change of a limited balance becomes an entry; a balance opens with what it held.
 * `holds` are the credits of synchronous requests still under way, refunded once each.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ledger')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('delta', 'bigint', (c) => c.notNull())
      .addColumn('balance_after', 'bigint', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('trace_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ledger_token').on('ledger').columns(['token_id', 'id']).execute();
    await db.schema
      .createTable('holds')
      .addColumn('trace_id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('holds_time').on('holds').column('created_at').execute();
    const now = Date.now();
    // The id sorts before every later entry (they start with the time in base 36).
    await sql`insert into ledger (id, token_id, kind, delta, balance_after, note, actor, trace_id, created_at)
      select ${'0'.repeat(9)} || id, id, 'opening', credits, credits, 'balance when the ledger began', 'system', null, ${now}
      from tokens where credits is not null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['holds', 'ledger']) await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
