/**
 * Reads one token's credits back from the database, for tests that check the books after real
 * processes ran (and died): its ledger entries grouped by trace id, its balance, and the holds
 * still open.
 */
import type { Db } from '../../src/store/database.js';

/** What the ledger says happened to one request's credits. */
export interface TraceCredits {
  charges: number;
  refunds: number;
  /** Refunds written by the expiry of a hold whose request died. */
  expired: number;
  /** Signed sum of the trace's entries: minus what the request kept. */
  net: number;
}

export interface Books {
  balance: number;
  /** Sum of every entry of the token, its opening balance included. */
  ledgerSum: number;
  /** The lowest balance any entry left behind. */
  lowest: number;
  byTrace: Map<string, TraceCredits>;
  /** The trace ids of the holds still open. */
  holds: string[];
}

/** The note `Credits.expire` writes on the refund of a hold whose request died. */
export const EXPIRY_NOTE = 'the request ended without being answered';

export async function booksOf(db: Db, tokenId: string): Promise<Books> {
  const [token, entries, holds] = await Promise.all([
    db.selectFrom('accounts').select('credits').where('id', '=', tokenId).executeTakeFirstOrThrow(),
    db.selectFrom('ledger').selectAll().where('account_id', '=', tokenId).execute(),
    db.selectFrom('holds').select('trace_id').where('account_id', '=', tokenId).execute(),
  ]);
  const byTrace = new Map<string, TraceCredits>();
  for (const entry of entries) {
    if (entry.trace_id === null) continue;
    const trace = byTrace.get(entry.trace_id) ?? { charges: 0, refunds: 0, expired: 0, net: 0 };
    if (entry.kind === 'charge') trace.charges += 1;
    if (entry.kind === 'refund') trace.refunds += 1;
    if (entry.kind === 'refund' && entry.note === EXPIRY_NOTE) trace.expired += 1;
    trace.net += Number(entry.delta);
    byTrace.set(entry.trace_id, trace);
  }
  return {
    balance: Number(token.credits),
    ledgerSum: entries.reduce((sum, e) => sum + Number(e.delta), 0),
    lowest: Math.min(...entries.map((e) => Number(e.balance_after))),
    byTrace,
    holds: holds.map((h) => h.trace_id),
  };
}
