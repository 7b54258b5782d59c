/**
 * Accounts own the balance; tokens belong to one. Every token becomes an account of its own, with
 * the token's id and balance, named like it (a revoked token's account, whose name a live one may
 * have taken since, gets `{name}-{its id}`), so that ledger entries and holds
 * keep pointing at the same balance. Budgets (JSON rules) sit on an account or a token; the credits
 * each used in a calendar window are counted in `budget_use`. A task keeps its price's quote (how
 * it was reckoned) and the budget windows it counted against, which its refund gives back.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('credits', 'bigint')
      .addColumn('budgets', 'text')
      .addColumn('low_balance', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into accounts (id, name, credits, budgets, low_balance, created_at)
      select id, case when revoked_at is null then name else name || '-' || id end,
        credits, null, null, created_at
      from tokens`.execute(db);
    await db.schema.alterTable('tokens').addColumn('account_id', 'text').execute();
    await db.schema.alterTable('tokens').addColumn('budgets', 'text').execute();
    await sql`update tokens set account_id = id`.execute(db);
    await db.schema.alterTable('tokens').dropColumn('credits').execute();
    await db.schema.createIndex('tokens_account').on('tokens').column('account_id').execute();

    await db.schema.alterTable('ledger').addColumn('account_id', 'text').execute();
    await sql`update ledger set account_id = token_id`.execute(db);
    // A balance's entries are read by account now; the token's index would only slow each charge.
    await db.schema.dropIndex('ledger_token').execute();
    await db.schema.createIndex('ledger_account').on('ledger').columns(['account_id', 'id']).execute();
    await db.schema.alterTable('holds').addColumn('account_id', 'text').execute();
    await sql`update holds set account_id = token_id`.execute(db);

    await db.schema
      .createTable('budget_use')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('used', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('budget_use_key', ['owner', 'period', 'starts_at'])
      .execute();
    await db.schema.alterTable('tasks').addColumn('quote', 'text').execute();
    await db.schema.alterTable('tasks').addColumn('budget_windows', 'text').execute();
    await db.schema.alterTable('usage').addColumn('quote', 'bigint').execute();

    // Low balances and used-up windows are alerted per account (or token) and per window.
    await db.schema.dropTable('balance_alerts').execute();
    await db.schema
      .createTable('account_alerts')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('alerted_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('account_alerts').execute();
    await db.schema
      .createTable('balance_alerts')
      .addColumn('token_id', 'text', (c) => c.primaryKey())
      .addColumn('alerted_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('usage').dropColumn('quote').execute();
    await db.schema.alterTable('tasks').dropColumn('budget_windows').execute();
    await db.schema.alterTable('tasks').dropColumn('quote').execute();
    await db.schema.dropTable('budget_use').execute();
    await db.schema.alterTable('holds').dropColumn('account_id').execute();
    await db.schema.dropIndex('ledger_account').execute();
    await db.schema.createIndex('ledger_token').on('ledger').columns(['token_id', 'id']).execute();
    await db.schema.alterTable('ledger').dropColumn('account_id').execute();
    await db.schema.alterTable('tokens').addColumn('credits', 'bigint').execute();
    await sql`update tokens set credits = (select credits from accounts where accounts.id = tokens.account_id)`.execute(
      db,
    );
    await db.schema.dropIndex('tokens_account').execute();
    await db.schema.alterTable('tokens').dropColumn('budgets').execute();
    await db.schema.alterTable('tokens').dropColumn('account_id').execute();
    await db.schema.dropTable('accounts').execute();
  },
};
