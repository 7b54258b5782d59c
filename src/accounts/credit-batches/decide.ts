/**
 * What one batch of holds, settlements and charges writes, decided in memory from the balances
 * read under the batch's lock (queue.ts): holds and charges in arrival order, each refused
 * when the balance left cannot cover it (so no balance goes below zero); settlements whose hold
 * was still there give back what the request did not use.
 */
import type { Insertable } from 'kysely';
import type { HoldTable, LedgerTable } from '../../store/tables.js';
import { entryOf } from '../ledger.js';

export type Op =
  | { kind: 'hold'; tokenId: string; amount: number; traceId: string }
  /** Gives back `refund` of the hold (all of it for a failed request), and ends the hold. */
  | { kind: 'settle'; tokenId: string; refund: number; traceId: string }
  /** Takes what an admitted request cost (admission.ts), with no hold before it. */
  | { kind: 'charge'; tokenId: string; amount: number; traceId: string };

export interface BatchWrites {
  /** Per op: false for a hold or a charge the balance could not cover. */
  outcome: boolean[];
  /** The new balances of the tokens that changed. */
  balances: Map<string, number>;
  entries: Insertable<LedgerTable>[];
  holds: HoldTable[];
}

/** The tokens whose balances the batch reads: settlements that give nothing back touch none. */
export function touchedTokens(batch: readonly Op[]): string[] {
  const ids = batch.filter((op) => op.kind !== 'settle' || op.refund > 0).map((op) => op.tokenId);
  // Sorted, so that two nodes lock the same rows in one order.
  return [...new Set(ids)].sort();
}

export function settledTraces(batch: readonly Op[]): string[] {
  return batch.filter((op) => op.kind === 'settle').map((op) => op.traceId);
}

/**
 * The writes of `batch`, given the `balances` read under lock and the holds that the batch's
 * settlements `ended` (deleted) just now.
 */
export function decide(
  batch: readonly Op[],
  read: ReadonlyMap<string, number>,
  ended: ReadonlySet<string>,
): BatchWrites {
  const now = Date.now();
  const current = new Map(read);
  const writes: BatchWrites = { outcome: [], balances: new Map(), entries: [], holds: [] };
  const move = (op: Op, balance: number, delta: number) => {
    current.set(op.tokenId, balance + delta);
    writes.balances.set(op.tokenId, balance + delta);
    const kind = delta < 0 ? 'charge' : 'refund';
    writes.entries.push(
      entryOf({ tokenId: op.tokenId, kind, delta, traceId: op.traceId }, balance + delta, now),
    );
  };
  for (const op of batch) {
    const balance = current.get(op.tokenId);
    // No balance read (unlimited, gone, or a settlement that gives nothing): nothing to write.
    if (balance === undefined) writes.outcome.push(true);
    else if (op.kind === 'settle') {
      if (ended.has(op.traceId) && op.refund > 0) move(op, balance, op.refund);
      writes.outcome.push(true);
    } else if (balance < op.amount) writes.outcome.push(false);
    else {
      move(op, balance, -op.amount);
      if (op.kind === 'hold')
        writes.holds.push({ trace_id: op.traceId, token_id: op.tokenId, amount: op.amount, created_at: now });
      writes.outcome.push(true);
    }
  }
  return writes;
}
