/**
 * Admission of synchronous requests on SQLite without a write (DECISIONS section 12). A request
 * whose answer is sent whole, once its cost is known, needs no durable hold: its one durable write
 * is the charge of what it cost, committed before the answer goes out. Until then this process
 * counts what its requests in flight may spend, per token, and admits a request only while the
 * balance read now covers it and them. The count is an estimate for this process alone (a task
 * submission, an administrator's deduction or another process may spend meanwhile), so it decides
 * nothing on its own: the charge is conditional on the balance, and a request whose charge the
 * balance no longer covers is refused rather than answered. No balance goes below zero and no
 * answer leaves uncharged; a process that dies leaves nothing to give back.
 */
import type SqliteDatabase from 'better-sqlite3';

export class Admission {
  /** Per token, the most its admitted requests may still spend. */
  private readonly inFlight = new Map<string, number>();
  private readonly balanceOf: SqliteDatabase.Statement<[string], { credits: number | null }>;

  constructor(sqlite: SqliteDatabase.Database) {
    this.balanceOf = sqlite.prepare('select credits from tokens where id = ?');
  }

  /** Counts `amount` against the token's balance; false when the balance cannot cover it. */
  admit(tokenId: string, amount: number): boolean {
    const row = this.balanceOf.get(tokenId);
    if (row === undefined) return false;
    const spending = this.inFlight.get(tokenId) ?? 0;
    // A balance made unlimited meanwhile covers anything; the charge will then write nothing.
    if (row.credits !== null && Number(row.credits) - spending < amount) return false;
    this.inFlight.set(tokenId, spending + amount);
    return true;
  }

  /** The request ended: its `amount` no longer counts. */
  release(tokenId: string, amount: number): void {
    const left = (this.inFlight.get(tokenId) ?? 0) - amount;
    if (left > 0) this.inFlight.set(tokenId, left);
    else this.inFlight.delete(tokenId);
  }
}
