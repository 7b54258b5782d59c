/**
 * The credit ledger as the operator reads it: newest first, of one account (the balance a token
 * spends) or overall. Each row names its account and the token that spent (null for a change
 * made to the account itself).
 */
import type { Db } from '../store/database.js';
import type { LedgerKind } from '../accounts/ledger.js';
import { iso, pageOf, type Page } from './values.js';
import { pageById } from './keyset-page.js';

export interface LedgerRow {
  id: string;
  at: string | null;
  account: string;
  token: string | null;
  kind: LedgerKind;
  delta: number;
  balance_after: number;
  note: string | null;
  actor: string;
  trace_id: string | null;
}

export async function ledgerEntries(
  db: Db,
  query: { accountId?: string; before?: string; limit: number },
  names: (ids: string[]) => Promise<Map<string, string>>,
): Promise<Page<LedgerRow>> {
  let select = pageById(db.selectFrom('ledger').selectAll(), query);
  if (query.accountId) select = select.where('account_id', '=', query.accountId);
  const rows = await select.execute();
  const named = await names([...new Set(rows.map((r) => r.token_id).filter(Boolean))]);
  const accountIds = [...new Set(rows.map((r) => r.account_id))];
  const accounts = new Map(
    accountIds.length === 0
      ? []
      : (await db.selectFrom('accounts').select(['id', 'name']).where('id', 'in', accountIds).execute()).map(
          (a) => [a.id, a.name],
        ),
  );
  return pageOf(
    rows,
    query.limit,
    (row) => ({
      id: row.id,
      at: iso(row.created_at),
      account: accounts.get(row.account_id) ?? row.account_id,
      token: row.token_id ? (named.get(row.token_id) ?? row.token_id) : null,
      kind: row.kind,
      delta: Number(row.delta),
      balance_after: Number(row.balance_after),
      note: row.note,
      actor: row.actor,
      trace_id: row.trace_id,
    }),
    (row) => [row.id],
  );
}
