/**
 * Admission of synchronous requests on SQLite without a write (DECISIONS section 12). A request
 * whose answer is sent whole, once its cost is known, needs no durable hold: its one durable write
 * is the charge of what it cost, committed before the answer goes out. Until then this process
 * counts what its requests in flight may spend, per account, and admits a request only while the
 * balance covers it and them. The count is an estimate for this process alone (a task submission,
 * an administrator's deduction or another process may spend meanwhile), so it decides nothing on
 * its own: the charge is conditional on the balance, and a request whose charge the balance no
 * longer covers is refused rather than answered. No balance goes below zero and no answer leaves
 * uncharged; a process that dies leaves nothing to give back.
 *
 * The balance is read from the database at most every FRESH_MS while an account is in use, and
 * lowered by what this process charged since: a read costs more than the rest of the admission
 * (each one a read transaction of its own). A request the remembered balance would refuse is
 * decided on a fresh read, so a top-up counts at once. An account's count outlives its last request
 * in flight until its read is stale: requests one after another (or streams, whose admission ends
 * once they are held) would otherwise read the balance every time.
 */
import type SqliteDatabase from 'better-sqlite3';

/** How long a balance read serves further admissions of the same account. */
const FRESH_MS = 100;

interface Count {
  /** The balance last read, less what this process charged since; null: unlimited. */
  balance: number | null;
  readAt: number;
  /** The most the account's admitted requests may still spend. */
  spending: number;
}

export class Admission {
  /** Per account with requests in flight or a balance read within FRESH_MS. */
  private readonly counts = new Map<string, Count>();
  private sweptAt = 0;
  private readonly balanceOf: SqliteDatabase.Statement<[string], { credits: number | null }>;

  constructor(sqlite: SqliteDatabase.Database) {
    this.balanceOf = sqlite.prepare('select credits from accounts where id = ?');
  }

  /** Counts `amount` against the account's balance; false when the balance cannot cover it. */
  admit(accountId: string, amount: number): boolean {
    const now = Date.now();
    if (now - this.sweptAt > FRESH_MS) this.forgetIdle(now);
    let count = this.counts.get(accountId);
    if (count === undefined || now - count.readAt > FRESH_MS || !covers(count, amount)) {
      const row = this.balanceOf.get(accountId);
      if (row === undefined) return false;
      const balance = row.credits === null ? null : Number(row.credits);
      count = { balance, readAt: now, spending: count?.spending ?? 0 };
      this.counts.set(accountId, count);
      if (!covers(count, amount)) return false;
    }
    count.spending += amount;
    return true;
  }

  /**
   * The request ended: its `amount` no longer counts, and `charged` of it was taken (committed).
   * `stale` when its charge was refused: the balance changed elsewhere, so it is read again.
   */
  release(accountId: string, amount: number, charged: number, stale = false): void {
    const count = this.counts.get(accountId);
    if (count === undefined) return;
    count.spending -= amount;
    if (count.balance !== null) count.balance -= charged;
    if (stale) count.readAt = 0;
  }

  /** Drops the counts of accounts with nothing in flight whose read is stale: they would read again. */
  private forgetIdle(now: number): void {
    this.sweptAt = now;
    for (const [accountId, count] of this.counts) {
      if (count.spending <= 0 && now - count.readAt > FRESH_MS) this.counts.delete(accountId);
    }
  }
}

/** A balance made unlimited meanwhile covers anything; the charge will then write nothing. */
function covers(count: Count, amount: number): boolean {
  return count.balance === null || count.balance - count.spending >= amount;
}
