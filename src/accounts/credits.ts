/**
 * Credit spending, every change written to the ledger. A task's price is taken in its
 * submission's transaction and refunded in its terminal move's, each one conditional UPDATE so
 * that concurrent spending never crosses zero. A synchronous request goes through the group
 * commit of credit-batches/: on PostgreSQL, where nodes share balances, it holds its price before
 * its work and gives back what it did not use once answered; on SQLite it is admitted in memory
 * (admission.ts) and charged once, what it cost, before its answer is sent, unless its answer
 * streams, which needs a hold first. A token with no balance (null) is unlimited and never
 * written to.
 */
import type { Kysely } from 'kysely';
import { sqliteHandleOf, type Db } from '../store/database.js';
import { postgresWriter, sqliteWriter } from './credit-batches/write.js';
import type { Database } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import { CreditBatches } from './credit-batches/queue.js';
import { Admission } from './admission.js';
import { changeBalance } from './ledger.js';

/** Who pays: an unlimited token (no balance, fixed at creation) is never written to. */
export interface Payer {
  id: string;
  credits: number | null;
}

/** Charges a task's price at its submission, inside the submission's transaction. */
export async function takeCredits(
  trx: Kysely<Database>,
  payer: Payer,
  amount: number,
  traceId: string,
): Promise<void> {
  // Writing the token row would serialise every request of the token on its row lock.
  if (amount <= 0 || payer.credits === null) return;
  const after = await changeBalance(trx, { tokenId: payer.id, kind: 'charge', delta: -amount, traceId });
  if (after === undefined) throw usedUp(amount);
}

/** Refunds a task's price at its terminal move, inside that move's transaction. */
export async function giveCredits(
  trx: Kysely<Database>,
  tokenId: string,
  amount: number,
  traceId: string,
): Promise<void> {
  if (amount <= 0) return;
  await changeBalance(trx, { tokenId, kind: 'refund', delta: amount, traceId });
}

export function usedUp(amount: number): ServiceError {
  return new ServiceError('used_up', `not enough credits: this request costs ${amount}`);
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

  constructor(db: Db) {
    const sqlite = sqliteHandleOf(db);
    this.batches = new CreditBatches(db, sqlite ? sqliteWriter(db, sqlite) : postgresWriter(db));
    this.admission = sqlite ? new Admission(sqlite) : undefined;
  }

  /** Reserves the credits of a synchronous request; what it does not keep is never taken. */
  async reserve(payer: Payer, amount: number, traceId: string): Promise<Reservation> {
    if (payer.credits === null || amount <= 0) return FREE;
    return this.admission
      ? this.admit(this.admission, payer.id, amount, traceId)
      : this.hold(payer.id, amount, traceId);
  }

  /** A durable hold, settled by giving back what the request did not use, once. */
  private async hold(tokenId: string, amount: number, traceId: string): Promise<Reservation> {
    if (!(await this.batches.hold(tokenId, amount, traceId))) throw usedUp(amount);
    let ended: Promise<void> | undefined;
    const end = (refund: number) => (ended ??= this.batches.settle(tokenId, traceId, refund));
    return {
      amount,
      secure: async () => {},
      settle: (cost) => end(amount - Math.min(cost, amount)),
      refund: () => end(amount),
    };
  }

  /** Counted in memory; charged once, what it cost, unless secured into a hold first. */
  private admit(admission: Admission, tokenId: string, amount: number, traceId: string): Reservation {
    if (!admission.admit(tokenId, amount)) throw usedUp(amount);
    let released = false;
    const release = (charged: number, stale = false) => {
      if (!released) admission.release(tokenId, amount, charged, stale);
      released = true;
    };
    let held: Reservation | undefined;
    let charged: Promise<void> | undefined;
    const charge = async (cost: number) => {
      if (cost > 0 && !(await this.batches.charge(tokenId, cost, traceId))) {
        release(0, true);
        throw usedUp(cost);
      }
      release(cost);
    };
    return {
      amount,
      secure: async () => {
        try {
          held = await this.hold(tokenId, amount, traceId);
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
