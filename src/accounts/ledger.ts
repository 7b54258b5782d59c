/**
 * The credit ledger (DECISIONS sections 5 and 12): every change of a limited balance (a top-up,
 * a charge, a refund, an adjustment, the opening balance) is an entry written in the same
 * transaction as the change, with the balance after it, so a balance always equals the sum of
 * its entries. A balance is an account's; an entry also names the token that spent (none for a
 * change made to the account itself). Unlimited accounts have no balance and no entries.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, LedgerTable } from '../store/tables.js';
import { recordId } from './record-id.js';
import { preparedInsert, preparedQuery } from '../store/prepared-query.js';

export type LedgerKind = LedgerTable['kind'];

export interface BalanceChange {
  accountId: string;
  /** The token that spent or redeemed; absent for a change made to the account. */
  tokenId?: string;
  kind: LedgerKind;
  /** Signed: a charge is negative. */
  delta: number;
  note?: string | null;
  /** The admin token that made the change; `system` when absent. */
  actor?: string;
  traceId?: string | null;
}

export function entryOf(
  change: BalanceChange,
  balanceAfter: number,
  now = Date.now(),
): Insertable<LedgerTable> {
  return {
    id: recordId(now),
    account_id: change.accountId,
    token_id: change.tokenId ?? '',
    kind: change.kind,
    delta: change.delta,
    balance_after: balanceAfter,
    note: change.note ?? null,
    actor: change.actor ?? 'system',
    trace_id: change.traceId ?? null,
    created_at: now,
  };
}

/**
 * Applies one change to an account's balance and writes its entry, inside `trx`; answers the
 * balance after it. A change that would take the balance below zero, or an account without a
 * balance (unlimited), changes nothing and answers undefined: one conditional UPDATE, so
 * concurrent changes cannot cross zero.
 */
export async function changeBalance(
  trx: Kysely<Database>,
  change: BalanceChange,
): Promise<number | undefined> {
  const [row] = await addToBalance(trx, { delta: change.delta, id: change.accountId });
  if (row?.credits === null || row?.credits === undefined) return undefined;
  const after = Number(row.credits);
  await insertEntry(trx, entryOf(change, after));
  return after;
}

const addToBalance = preparedQuery<{ delta: number; id: string }, { credits: number | null }>((db, slot) =>
  db
    .updateTable('accounts')
    .set({ credits: sql<number>`credits + ${slot('delta')}` })
    .where('id', '=', slot('id'))
    .where('credits', 'is not', null)
    .where(sql<boolean>`credits + ${slot('delta')} >= 0`)
    .returning('credits'),
);

const insertEntry = preparedInsert('ledger');
