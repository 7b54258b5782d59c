/**
 * The credits of synchronous requests, by group commit: holds, settlements and charges are queued
 * here into batches, each decided in memory (decide.ts) and written in one transaction (write.ts).
 * What arrives while a batch is being written waits for the next one. In a batch the account rows
 * and budget windows are locked and read, every op decided in arrival order (a hold or a charge
 * the balance or a window cannot cover is refused, so no balance goes below zero), then one
 * balance write per account and per window, the ledger entries and the hold rows. A request learns its outcome only once its batch
 * committed: an answer is sent after its charge is durable, so a crash never leaves a sent answer
 * uncharged. A settlement deletes its hold row first, so each hold is given back at most once; a
 * hold that was never settled (its process died) is refunded by `expire` once it is older than
 * any request runs.
 */
import type { Db } from '../../store/database.js';
import type { Op, Refusal, Spender } from './decide.js';
import type { BatchWriter } from './write.js';
import { changeBalance } from '../ledger.js';
import { Batching } from '../../store/batching.js';

interface Pending {
  resolve: (refused: Refusal | undefined) => void;
  reject: (error: unknown) => void;
}

export class CreditBatches {
  // Ops that arrive in the same turn of the event loop go in one batch.
  private readonly batching = new Batching<Op & Pending>(async (batch) => {
    try {
      const { outcome } = await this.write(batch);
      batch.forEach((op, i) => op.resolve(outcome[i]!));
    } catch (error) {
      for (const op of batch) op.reject(error);
    }
  });

  constructor(
    private readonly db: Db,
    /** Writes one batch in one transaction (write.ts). */
    private readonly write: BatchWriter,
  ) {}

  /** Holds `amount`; answers why not when the balance or a window cannot cover it. */
  hold(spender: Spender, amount: number, traceId: string): Promise<Refusal | undefined> {
    return new Promise((resolve, reject) =>
      this.push({ ...spender, kind: 'hold', amount, traceId, resolve, reject }),
    );
  }

  /** Takes `amount` for a request that held nothing (admission.ts); answers why not when not covered. */
  charge(spender: Spender, amount: number, traceId: string): Promise<Refusal | undefined> {
    return new Promise((resolve, reject) =>
      this.push({ ...spender, kind: 'charge', amount, traceId, resolve, reject }),
    );
  }

  /** Ends the hold of `traceId`, giving `refund` of it back. */
  async settle(spender: Spender, traceId: string, refund: number): Promise<void> {
    await new Promise((resolve, reject) =>
      this.push({ ...spender, kind: 'settle', refund, traceId, resolve, reject }),
    );
  }

  private push(op: Op & Pending): void {
    this.batching.push(op);
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
        // The windows the hold counted in are not known here: they keep its use.
        await changeBalance(trx, {
          accountId: hold.account_id,
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
