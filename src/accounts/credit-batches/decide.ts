/**
 * What one batch of holds, settlements and charges writes, decided in memory from the balances
 * and budget windows read under the batch's lock (queue.ts): holds and charges in arrival order,
 * each refused when the balance left, or a window's budget left, cannot cover it (so no balance
 * goes below zero and no window past its limit); settlements whose hold was still there give back
 * what the request did not use, to the balance and to the windows the hold counted in.
 */
import type { Insertable } from 'kysely';
import type { HoldTable, LedgerTable } from '../../store/tables.js';
import { entryOf } from '../ledger.js';
import { joinedKey, keyOf, type BudgetWindow, type WindowKey } from '../budgets.js';

/** Who spends: the account that pays, its token, and the budget windows the spending counts in. */
export interface Spender {
  accountId: string;
  tokenId: string;
  windows: readonly BudgetWindow[];
}

export type Op = Spender &
  (
    | { kind: 'hold'; amount: number; traceId: string }
    /** Gives back `refund` of the hold (all of it for a failed request), and ends the hold. */
    | { kind: 'settle'; refund: number; traceId: string }
    /** Takes what an admitted request cost (admission.ts), with no hold before it. */
    | { kind: 'charge'; amount: number; traceId: string }
  );

/** Why a hold or a charge was refused: the balance, or the budget window that could not cover it. */
export type Refusal = 'balance' | BudgetWindow;

export interface BatchWrites {
  /** Per op: undefined when done, else why a hold or a charge was refused. */
  outcome: (Refusal | undefined)[];
  /** The new balances of the accounts that changed. */
  balances: Map<string, number>;
  /** The new use of the budget windows that changed. */
  use: Map<string, { key: WindowKey; used: number }>;
  entries: Insertable<LedgerTable>[];
  holds: HoldTable[];
}

/** Whether the op reads anything: settlements that give nothing back touch nothing. */
const touches = (op: Op) => op.kind !== 'settle' || op.refund > 0;

/** The accounts whose balances the batch reads, sorted so that two nodes lock rows in one order. */
export function touchedAccounts(batch: readonly Op[]): string[] {
  return [...new Set(batch.filter(touches).map((op) => op.accountId))].sort();
}

/** The budget windows the batch reads. */
export function touchedWindows(batch: readonly Op[]): WindowKey[] {
  const keys = new Map<string, WindowKey>();
  for (const op of batch.filter(touches))
    for (const window of op.windows) keys.set(joinedKey(keyOf(window)), keyOf(window));
  return [...keys.values()];
}

export function settledTraces(batch: readonly Op[]): string[] {
  return batch.filter((op) => op.kind === 'settle').map((op) => op.traceId);
}

/**
 * The writes of `batch`, given the `balances` (limited accounts only) and window `use` read under
 * lock, and the holds that the batch's settlements `ended` (deleted) just now.
 */
export function decide(
  batch: readonly Op[],
  read: ReadonlyMap<string, number>,
  readUse: ReadonlyMap<string, number>,
  ended: ReadonlySet<string>,
): BatchWrites {
  const now = Date.now();
  const balances = new Map(read);
  const writes: BatchWrites = { outcome: [], balances: new Map(), use: new Map(), entries: [], holds: [] };
  const used = (w: BudgetWindow) =>
    writes.use.get(joinedKey(keyOf(w)))?.used ?? readUse.get(joinedKey(keyOf(w))) ?? 0;
  const move = (op: Op, delta: number) => {
    const balance = balances.get(op.accountId);
    if (balance !== undefined) {
      balances.set(op.accountId, balance + delta);
      writes.balances.set(op.accountId, balance + delta);
      const kind = delta < 0 ? 'charge' : 'refund';
      const change = {
        accountId: op.accountId,
        tokenId: op.tokenId,
        kind,
        delta,
        traceId: op.traceId,
      } as const;
      writes.entries.push(entryOf(change, balance + delta, now));
    }
    for (const w of op.windows) writes.use.set(joinedKey(keyOf(w)), { key: keyOf(w), used: used(w) - delta });
  };
  for (const op of batch) {
    if (op.kind === 'settle') {
      if (ended.has(op.traceId) && op.refund > 0) move(op, op.refund);
      writes.outcome.push(undefined);
      continue;
    }
    const balance = balances.get(op.accountId);
    const short = op.windows.find((w) => used(w) + op.amount > w.limit);
    if (balance !== undefined && balance < op.amount) writes.outcome.push('balance');
    else if (short) writes.outcome.push(short);
    else {
      move(op, -op.amount);
      if (op.kind === 'hold')
        writes.holds.push({
          trace_id: op.traceId,
          account_id: op.accountId,
          token_id: op.tokenId,
          amount: op.amount,
          created_at: now,
        });
      writes.outcome.push(undefined);
    }
  }
  return writes;
}
