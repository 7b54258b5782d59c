/**
 * Where a batch of holds and settlements is written, in one transaction: lock and read the
 * balances it touches, end the holds it settles, then write what `decide` made of them. Through
 * Kysely on PostgreSQL; on SQLite straight through better-sqlite3's prepared statements inside
 * the one connection Kysely lends, since a batch is a handful of statements and Kysely's
 * compiling and awaiting cost more than SQLite's work.
 */
import type { Kysely } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../../store/database.js';
import type { Database } from '../../store/tables.js';
import {
  decide,
  settledTraces,
  touchedAccounts,
  touchedWindows,
  type BatchWrites,
  type Op,
} from './decide.js';
import { lockedUse } from '../budget-use.js';
import { joinedKey } from '../budgets.js';

export type BatchWriter = (batch: readonly Op[]) => Promise<BatchWrites>;

/** A ledger row's columns in the order of the SQLite insert below. */
type LedgerValues = [
  string,
  string,
  string,
  string,
  number,
  number,
  string | null,
  string,
  string | null,
  number,
];

/** Rows per multi-row INSERT: far below every driver's limit on bound values. */
const ROWS_PER_INSERT = 500;

/**
 * PostgreSQL: the account rows, then the window rows, locked `FOR UPDATE` in key order, so that
 * two nodes never deadlock.
 */
export function postgresWriter(db: Db): BatchWriter {
  return (batch) => db.transaction().execute((trx) => writeOnPostgres(trx, batch));
}

async function writeOnPostgres(trx: Kysely<Database>, batch: readonly Op[]): Promise<BatchWrites> {
  const accountIds = touchedAccounts(batch);
  const settling = settledTraces(batch);
  const rows =
    accountIds.length === 0
      ? []
      : await trx
          .selectFrom('accounts')
          .select(['id', 'credits'])
          .where('id', 'in', accountIds)
          .where('credits', 'is not', null)
          .orderBy('id')
          .forUpdate()
          .execute();
  const use = await lockedUse(trx, touchedWindows(batch));
  const ended =
    settling.length === 0
      ? []
      : await trx.deleteFrom('holds').where('trace_id', 'in', settling).returning('trace_id').execute();
  const writes = decide(
    batch,
    new Map(rows.map((r) => [r.id, Number(r.credits)])),
    use,
    new Set(ended.map((r) => r.trace_id)),
  );
  for (const [id, credits] of writes.balances) {
    await trx.updateTable('accounts').set({ credits }).where('id', '=', id).execute();
  }
  for (const { key, used } of writes.use.values()) {
    await trx
      .updateTable('budget_use')
      .set({ used })
      .where('owner', '=', key[0])
      .where('period', '=', key[1])
      .where('starts_at', '=', key[2])
      .execute();
  }
  for (let i = 0; i < writes.entries.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('ledger')
      .values(writes.entries.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
  for (let i = 0; i < writes.holds.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('holds')
      .values(writes.holds.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
  return writes;
}

export function sqliteWriter(db: Db, sqlite: SqliteDatabase.Database): BatchWriter {
  // The batch runs as BEGIN IMMEDIATE, which takes the database's write lock before anything is
  // read: a plain read of a balance is then as good as a lock of its row, and writes nothing.
  const balanceOf = sqlite.prepare<[string], { credits: number }>(
    'select credits from accounts where id = ? and credits is not null',
  );
  const openWindow = sqlite.prepare<[string, string, number]>(
    'insert or ignore into budget_use (owner, period, starts_at, used) values (?, ?, ?, 0)',
  );
  const useOf = sqlite.prepare<[string, string, number], { used: number }>(
    'select used from budget_use where owner = ? and period = ? and starts_at = ?',
  );
  const setUse = sqlite.prepare<[number, string, string, number]>(
    'update budget_use set used = ? where owner = ? and period = ? and starts_at = ?',
  );
  // Whether a row went is told by the count of changes: RETURNING gathers the deleted rows in a
  // table of its own first, and made a hold's end cost four times its start.
  const endHold = sqlite.prepare<[string]>('delete from holds where trace_id = ?');
  const setBalance = sqlite.prepare<[number, string]>('update accounts set credits = ? where id = ?');
  // Values bound by position: binding by name looks each one up, a good part of a row's cost.
  const addEntry = sqlite.prepare<LedgerValues>(
    'insert into ledger (id, account_id, token_id, kind, delta, balance_after, note, actor, trace_id, created_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const addHold = sqlite.prepare<[string, string, string, number, number]>(
    'insert into holds (trace_id, account_id, token_id, amount, created_at) values (?, ?, ?, ?, ?)',
  );
  const write = sqlite.transaction((batch: readonly Op[]): BatchWrites => {
    const balances = new Map<string, number>();
    for (const id of touchedAccounts(batch)) {
      const row = balanceOf.get(id);
      if (row) balances.set(id, Number(row.credits));
    }
    const use = new Map<string, number>();
    for (const key of touchedWindows(batch)) {
      openWindow.run(...key);
      use.set(joinedKey(key), Number(useOf.get(...key)?.used ?? 0));
    }
    const ended = new Set<string>();
    for (const trace of settledTraces(batch)) if (endHold.run(trace).changes === 1) ended.add(trace);
    const writes = decide(batch, balances, use, ended);
    for (const [id, credits] of writes.balances) setBalance.run(credits, id);
    for (const { key, used } of writes.use.values()) setUse.run(used, ...key);
    for (const e of writes.entries) {
      const { note = null, trace_id = null, token_id = '' } = e;
      addEntry.run(
        e.id,
        e.account_id,
        token_id,
        e.kind,
        e.delta,
        e.balance_after,
        note,
        e.actor,
        trace_id,
        e.created_at,
      );
    }
    for (const h of writes.holds) addHold.run(h.trace_id, h.account_id, h.token_id, h.amount, h.created_at);
    return writes;
  });
  // The connection Kysely lends is the one connection: no Kysely transaction is open meanwhile.
  return (batch) => db.connection().execute(async () => write.immediate(batch));
}
