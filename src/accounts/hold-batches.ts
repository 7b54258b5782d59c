/**
 * The credits of synchronous requests, by group commit (DECISIONS section 12). Holds and
 * settlements that arrive while a batch is being written wait for the next one; each batch is
 * one transaction: the token rows locked and read, every hold and settlement decided in memory
 * in arrival order (a hold the balance cannot cover is refused, so no balance goes below zero),
 * then one balance write per token, the ledger entries and the hold rows in a statement each. A
 * request learns its outcome only once its batch committed: an answer is sent after its charge is
 * durable, so a crash never leaves a sent answer uncharged. A settlement deletes its hold row
 * first, so each hold is given back at most once; a hold that was never settled (its process
 * died) is refunded by `expire` once it is older than any request runs.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../store/database.js';
import type { Database, HoldTable, LedgerTable } from '../store/tables.js';
import { changeBalance, entryOf } from './ledger.js';

interface Pending {
  resolve: (held: boolean) => void;
  reject: (error: unknown) => void;
}

type Op =
  | ({ kind: 'hold'; tokenId: string; amount: number; traceId: string } & Pending)
  /** Gives back `refund` of the hold (all of it for a failed request), and ends the hold. */
  | ({ kind: 'settle'; tokenId: string; refund: number; traceId: string } & Pending);

/** Rows per multi-row INSERT: far below every driver's limit on bound values. */
const ROWS_PER_INSERT = 500;

export class HoldBatches {
  private queue: Op[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    /** PostgreSQL locks the token rows with FOR UPDATE; SQLite by writing first. */
    private readonly postgres: boolean,
  ) {}

  /** Holds `amount`; false when the balance cannot cover it. */
  hold(tokenId: string, amount: number, traceId: string): Promise<boolean> {
    return new Promise((resolve, reject) =>
      this.push({ kind: 'hold', tokenId, amount, traceId, resolve, reject }),
    );
  }

  /** Ends the hold of `traceId`, giving `refund` of it back. */
  async settle(tokenId: string, traceId: string, refund: number): Promise<void> {
    await new Promise((resolve, reject) =>
      this.push({ kind: 'settle', tokenId, refund, traceId, resolve, reject }),
    );
  }

  private push(op: Op): void {
    this.queue.push(op);
    // Ops that arrive in the same turn of the event loop go in one batch.
    if (!this.writing) {
      this.writing = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        const held = await this.db.transaction().execute((trx) => this.write(trx, batch));
        batch.forEach((op, i) => op.resolve(held[i]!));
      } catch (error) {
        for (const op of batch) op.reject(error);
      }
    }
    this.writing = false;
  }

  private async write(trx: Kysely<Database>, batch: Op[]): Promise<boolean[]> {
    const balances = await this.lock(trx, [...new Set(batch.map((op) => op.tokenId))].sort());
    const settling = batch.filter((op) => op.kind === 'settle').map((op) => op.traceId);
    const ended =
      settling.length === 0
        ? new Set<string>()
        : new Set(
            (
              await trx.deleteFrom('holds').where('trace_id', 'in', settling).returning('trace_id').execute()
            ).map((r) => r.trace_id),
          );
    const now = Date.now();
    const entries: Insertable<LedgerTable>[] = [];
    const holds: HoldTable[] = [];
    const changed = new Set<string>();
    const outcome = batch.map((op) => {
      const balance = balances.get(op.tokenId);
      // No balance (the token is unlimited or gone): nothing to hold or give back.
      if (balance === undefined) return true;
      if (op.kind === 'settle') {
        if (!ended.has(op.traceId) || op.refund <= 0) return true;
        balances.set(op.tokenId, balance + op.refund);
        entries.push(
          entryOf(
            { tokenId: op.tokenId, kind: 'refund', delta: op.refund, traceId: op.traceId },
            balance + op.refund,
            now,
          ),
        );
      } else {
        if (balance < op.amount) return false;
        balances.set(op.tokenId, balance - op.amount);
        entries.push(
          entryOf(
            { tokenId: op.tokenId, kind: 'charge', delta: -op.amount, traceId: op.traceId },
            balance - op.amount,
            now,
          ),
        );
        holds.push({ trace_id: op.traceId, token_id: op.tokenId, amount: op.amount, created_at: now });
      }
      changed.add(op.tokenId);
      return true;
    });
    for (const tokenId of changed) {
      await trx
        .updateTable('tokens')
        .set({ credits: balances.get(tokenId)! })
        .where('id', '=', tokenId)
        .execute();
    }
    for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
      await trx
        .insertInto('ledger')
        .values(entries.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
    for (let i = 0; i < holds.length; i += ROWS_PER_INSERT) {
      await trx
        .insertInto('holds')
        .values(holds.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
    return outcome;
  }

  /**
   * Locks the limited balances of `tokenIds` (sorted, so that two nodes lock in one order) for
   * the transaction and reads them.
   */
  private async lock(trx: Kysely<Database>, tokenIds: string[]): Promise<Map<string, number>> {
    const query = trx
      .selectFrom('tokens')
      .select(['id', 'credits'])
      .where('id', 'in', tokenIds)
      .where('credits', 'is not', null)
      .orderBy('id');
    let rows;
    if (this.postgres) rows = await query.forUpdate().execute();
    else {
      // A write first takes SQLite's write lock, so the read below sees the latest balances.
      await trx
        .updateTable('tokens')
        .set({ credits: sql`credits` })
        .where('id', 'in', tokenIds)
        .execute();
      rows = await query.execute();
    }
    return new Map(rows.map((r) => [r.id, Number(r.credits)]));
  }

  /** Refunds the holds older than `ms` (their requests ended without settling); answers how many. */
  async expire(ms: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const stale = await trx
        .deleteFrom('holds')
        .where('created_at', '<', Date.now() - ms)
        .returningAll()
        .execute();
      for (const hold of stale) {
        await changeBalance(trx, {
          tokenId: hold.token_id,
          kind: 'refund',
          delta: Number(hold.amount),
          traceId: hold.trace_id,
          note: 'the request ended without being answered',
        });
      }
      return stale.length;
    });
  }
}
