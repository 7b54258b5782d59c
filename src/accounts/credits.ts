/**
 * Credit spending, every change written to the ledger. Tokens spend their account's balance, and
 * count what they spend in the budget windows of the token and of the account. A task's price is
 * taken in its submission's transaction and refunded in its terminal move's, each one conditional
 * UPDATE so that concurrent spending never crosses zero nor a window's limit. A synchronous
 * request goes through the group commit of credit-batches/: on PostgreSQL, where nodes share
 * balances, it holds its price before its work and gives back what it did not use once answered;
 * on SQLite it is admitted in memory (admission.ts) and charged once, what it cost, before its
 * answer is sent, unless its answer streams or it counts in a budget, which needs a hold first.
 * An account with no balance (null) is unlimited: without budgets, it is never written to.
 */
import type { Kysely } from 'kysely';
import { sqliteHandleOf, type Db } from '../store/database.js';
import { postgresWriter, sqliteWriter } from './credit-batches/write.js';
import type { Database } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import { CreditBatches } from './credit-batches/queue.js';
import { Admission } from './admission.js';
import { changeBalance } from './ledger.js';
import { keyOf, windowsOf, windowUsedUp, type Budget, type BudgetWindow, type WindowKey } from './budgets.js';
import { returnWindows, spendWindows } from './budget-use.js';
import type { Refusal, Spender } from './credit-batches/decide.js';

/** Who pays: a token, and the account whose balance it spends. */
export interface Payer {
  /** The token's id. */
  id: string;
  accountId: string;
  /** The account has no balance: only budgets limit it. */
  unlimited: boolean;
  /** The budgets of the token and of its account. */
  budgets: readonly Budget[];
}

/**
 * Charges a task's price at its submission, inside the submission's transaction, counting it in
 * `windows` (the payer's budget windows now); answers the windows' keys, for its refund.
 */
export async function takeCredits(
  trx: Kysely<Database>,
  payer: Payer,
  windows: readonly BudgetWindow[],
  amount: number,
  traceId: string,
): Promise<WindowKey[]> {
  if (amount <= 0) return [];
  if (!payer.unlimited) {
    const change = {
      accountId: payer.accountId,
      tokenId: payer.id,
      kind: 'charge',
      delta: -amount,
      traceId,
    } as const;
    if ((await changeBalance(trx, change)) === undefined) throw usedUp(amount);
  }
  const short = await spendWindows(trx, windows, amount);
  if (short) throw windowUsedUp(short, amount);
  return windows.map(keyOf);
}

/** Refunds a task's price at its terminal move, inside that move's transaction. */
export async function giveCredits(
  trx: Kysely<Database>,
  task: { accountId: string; tokenId: string; windows: readonly WindowKey[] },
  amount: number,
  traceId: string,
): Promise<void> {
  if (amount <= 0) return;
  const change = {
    accountId: task.accountId,
    tokenId: task.tokenId,
    kind: 'refund',
    delta: amount,
    traceId,
  } as const;
  await changeBalance(trx, change);
  await returnWindows(trx, task.windows, amount);
}

export function usedUp(amount: number): ServiceError {
  return new ServiceError('used_up', `not enough credits: this request costs ${amount}`);
}

function refused(refusal: Refusal, amount: number): ServiceError {
  return refusal === 'balance' ? usedUp(amount) : windowUsedUp(refusal, amount);
}

export interface Reservation {
  readonly amount: number;
  /**
   * Holds the credits durably, before an answer starts whose cost is known only at its end (a
   * stream); used_up when the balance no longer covers them. Once at most, before `settle`.
   */
  secure(): Promise<void>;
  /**
   * Keeps `cost` (at most the amount reserved) and returns the rest; once. An admitted request
   * (SQLite) is refused here with used_up when its balance was spent elsewhere meanwhile.
   */
  settle(cost: number): Promise<void>;
  /** Returns the credits; safe to call more than once. */
  refund(): Promise<void>;
}

/** An unlimited balance has nothing to take or give back: no write at all. */
const FREE: Reservation = {
  amount: 0,
  secure: async () => {},
  settle: async () => {},
  refund: async () => {},
};

export class Credits {
  private readonly batches: CreditBatches;
  /** On SQLite only: one database, so a request needs no hold to be charged exactly. */
  private readonly admission: Admission | undefined;

  constructor(
    db: Db,
    /** The billing time zone, whose midnights bound budget windows. */
    private readonly zone: string,
  ) {
    const sqlite = sqliteHandleOf(db);
    this.batches = new CreditBatches(db, sqlite ? sqliteWriter(db, sqlite) : postgresWriter(db));
    this.admission = sqlite ? new Admission(sqlite) : undefined;
  }

  /** The payer's budget windows at this moment. */
  windowsOf(payer: Payer, at = Date.now()): BudgetWindow[] {
    return windowsOf(payer.budgets, at, this.zone);
  }

  /** Reserves the credits of a synchronous request; what it does not keep is never taken. */
  async reserve(payer: Payer, amount: number, traceId: string): Promise<Reservation> {
    if (amount <= 0 || (payer.unlimited && payer.budgets.length === 0)) return FREE;
    const spender: Spender = {
      accountId: payer.accountId,
      tokenId: payer.id,
      windows: this.windowsOf(payer),
    };
    // Admission counts balances only: spending under a budget is held, where its windows are read.
    return this.admission && spender.windows.length === 0
      ? this.admit(this.admission, spender, amount, traceId)
      : this.hold(spender, amount, traceId);
  }

  /** A durable hold, settled by giving back what the request did not use, once. */
  private async hold(spender: Spender, amount: number, traceId: string): Promise<Reservation> {
    const refusal = await this.batches.hold(spender, amount, traceId);
    if (refusal) throw refused(refusal, amount);
    let ended: Promise<void> | undefined;
    const end = (refund: number) => (ended ??= this.batches.settle(spender, traceId, refund));
    return {
      amount,
      secure: async () => {},
      settle: (cost) => end(amount - Math.min(cost, amount)),
      refund: () => end(amount),
    };
  }

  /** Counted in memory; charged once, what it cost, unless secured into a hold first. */
  private admit(admission: Admission, spender: Spender, amount: number, traceId: string): Reservation {
    const accountId = spender.accountId;
    if (!admission.admit(accountId, amount)) throw usedUp(amount);
    let released = false;
    const release = (charged: number, stale = false) => {
      if (!released) admission.release(accountId, amount, charged, stale);
      released = true;
    };
    let held: Reservation | undefined;
    let charged: Promise<void> | undefined;
    const charge = async (cost: number) => {
      const refusal = cost > 0 ? await this.batches.charge(spender, cost, traceId) : undefined;
      if (refusal) {
        release(0, true);
        throw refused(refusal, cost);
      }
      release(cost);
    };
    return {
      amount,
      secure: async () => {
        try {
          held = await this.hold(spender, amount, traceId);
          release(amount);
        } catch (error) {
          release(0, true);
          throw error;
        }
      },
      settle: (cost) => (held ? held.settle(cost) : (charged ??= charge(Math.min(cost, amount)))),
      refund: async () => {
        if (held) await held.refund();
        else release(0);
      },
    };
  }

  /** Refunds the holds of requests that ended without an answer (a process that died). */
  expire(ms: number): Promise<number> {
    return this.batches.expire(ms);
  }

  private sweeper: NodeJS.Timeout | undefined;

  /** Expires holds older than `holdMs` now and then, on the nodes that run workers. */
  startExpiry(holdMs: number, onError: (error: unknown) => void): void {
    const sweep = () => void this.expire(holdMs).catch(onError);
    sweep();
    this.sweeper = setInterval(sweep, Math.min(EXPIRY_EVERY_MS, holdMs)).unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}

const EXPIRY_EVERY_MS = 60_000;
