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
import { decide, settledTraces, touchedTokens, type BatchWrites, type Op } from './decide.js';

export type BatchWriter = (batch: readonly Op[]) => Promise<BatchWrites>;

/** A ledger row's columns in the order of the SQLite insert below. */
type LedgerValues = [string, string, string, number, number, string | null, string, string | null, number];

/** Rows per multi-row INSERT: far below every driver's limit on bound values. */
const ROWS_PER_INSERT = 500;

/** PostgreSQL: the token rows locked `FOR UPDATE` in id order, so that two nodes never deadlock. */
export function postgresWriter(db: Db): BatchWriter {
  return (batch) => db.transaction().execute((trx) => writeOnPostgres(trx, batch));
}

async function writeOnPostgres(trx: Kysely<Database>, batch: readonly Op[]): Promise<BatchWrites> {
  const tokenIds = touchedTokens(batch);
  const settling = settledTraces(batch);
  const rows =
    tokenIds.length === 0
      ? []
      : await trx
          .selectFrom('tokens')
          .select(['id', 'credits'])
          .where('id', 'in', tokenIds)
          .where('credits', 'is not', null)
          .orderBy('id')
          .forUpdate()
          .execute();
  const ended =
    settling.length === 0
      ? []
      : await trx.deleteFrom('holds').where('trace_id', 'in', settling).returning('trace_id').execute();
  const writes = decide(
    batch,
    new Map(rows.map((r) => [r.id, Number(r.credits)])),
    new Set(ended.map((r) => r.trace_id)),
  );
  for (const [id, credits] of writes.balances) {
    await trx.updateTable('tokens').set({ credits }).where('id', '=', id).execute();
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
    'select credits from tokens where id = ? and credits is not null',
  );
  // Whether a row went is told by the count of changes: RETURNING gathers the deleted rows in a
  // table of its own first, and made a hold's end cost four times its start.
  const endHold = sqlite.prepare<[string]>('delete from holds where trace_id = ?');
  const setBalance = sqlite.prepare<[number, string]>('update tokens set credits = ? where id = ?');
  // Values bound by position: binding by name looks each one up, a good part of a row's cost.
  const addEntry = sqlite.prepare<LedgerValues>(
    'insert into ledger (id, token_id, kind, delta, balance_after, note, actor, trace_id, created_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const addHold = sqlite.prepare<[string, string, number, number]>(
    'insert into holds (trace_id, token_id, amount, created_at) values (?, ?, ?, ?)',
  );
  const write = sqlite.transaction((batch: readonly Op[]): BatchWrites => {
    const balances = new Map<string, number>();
    for (const id of touchedTokens(batch)) {
      const row = balanceOf.get(id);
      if (row) balances.set(id, Number(row.credits));
    }
    const ended = new Set<string>();
    for (const trace of settledTraces(batch)) if (endHold.run(trace).changes === 1) ended.add(trace);
    const writes = decide(batch, balances, ended);
    for (const [id, credits] of writes.balances) setBalance.run(credits, id);
    for (const e of writes.entries) {
      const { note = null, trace_id = null } = e;
      addEntry.run(e.id, e.token_id, e.kind, e.delta, e.balance_after, note, e.actor, trace_id, e.created_at);
    }
    for (const h of writes.holds) addHold.run(h.trace_id, h.token_id, h.amount, h.created_at);
    return writes;
  });
  // The connection Kysely lends is the one connection: no Kysely transaction is open meanwhile.
  return (batch) => db.connection().execute(async () => write.immediate(batch));
}
