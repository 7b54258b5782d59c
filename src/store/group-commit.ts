/**
 * Small transactions, committed together. On SQLite every transaction runs on the one connection,
 * one after another, and its commit (the WAL write) costs more than the few statements inside: the
 * transactions that arrive while one batch is being written go into the next batch, each inside
 * a savepoint of one shared transaction, and each caller learns its outcome only after that
 * transaction committed, so nothing is answered before it is durable. A transaction that throws
 * rolls back to its savepoint alone; the others commit. On PostgreSQL each transaction is its
 * own: the pool runs them side by side and a shared one would couple their row locks.
 */
import type { Kysely } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';
import { sqliteHandleOf, type Db } from './database.js';
import type { Database } from './tables.js';
import { Batching } from './batching.js';

export type Work<T> = (trx: Kysely<Database>) => Promise<T>;

export interface Transactions {
  /** Runs `work` in a transaction; resolves once it committed. */
  run<T>(work: Work<T>): Promise<T>;
}

interface Queued {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

const shared = new WeakMap<Db, Transactions>();

/** The transactions of `db`: one group per SQLite database, so that all its writers share batches. */
export function transactionsOf(db: Db): Transactions {
  let transactions = shared.get(db);
  if (!transactions) {
    const sqlite = sqliteHandleOf(db);
    transactions = sqlite ? new GroupCommit(db, sqlite) : { run: (work) => db.transaction().execute(work) };
    shared.set(db, transactions);
  }
  return transactions;
}

class GroupCommit implements Transactions {
  // Transactions asked for in the same turn of the event loop share a batch.
  private readonly batching = new Batching<Queued>((batch) =>
    batch.length === 1 ? this.alone(batch[0]!) : this.together(batch),
  );
  private readonly savepoint: SqliteDatabase.Statement;
  private readonly release: SqliteDatabase.Statement;
  private readonly rollback: SqliteDatabase.Statement;

  constructor(
    private readonly db: Db,
    sqlite: SqliteDatabase.Database,
  ) {
    this.savepoint = sqlite.prepare('savepoint grouped');
    this.release = sqlite.prepare('release grouped');
    this.rollback = sqlite.prepare('rollback to grouped');
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.batching.push({ work, resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  private async alone(item: Queued): Promise<void> {
    try {
      item.resolve(await this.db.transaction().execute(item.work));
    } catch (error) {
      item.reject(error);
    }
  }

  private async together(batch: Queued[]): Promise<void> {
    const settled: Settled[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) settled.push(await this.inSavepoint(trx, item.work));
      });
    } catch (error) {
      // The commit itself failed: nothing of the batch was kept.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = settled[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  private async inSavepoint(trx: Kysely<Database>, work: Work<unknown>): Promise<Settled> {
    this.savepoint.run();
    try {
      const value = await work(trx);
      this.release.run();
      return { ok: true, value };
    } catch (error) {
      this.rollback.run();
      this.release.run();
      return { ok: false, error };
    }
  }
}
