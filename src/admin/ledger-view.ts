/** The credit ledger as the operator reads it: newest first, per token or overall. */
import type { Db } from '../store/database.js';
import type { LedgerKind } from '../accounts/ledger.js';
import { iso, pageOf, type Page } from './values.js';
import { pageById } from './keyset-page.js';

export interface LedgerRow {
  id: string;
  at: string | null;
  token: string;
  kind: LedgerKind;
  delta: number;
  balance_after: number;
  note: string | null;
  actor: string;
  trace_id: string | null;
}

export async function ledgerEntries(
  db: Db,
  query: { tokenId?: string; before?: string; limit: number },
  names: (ids: string[]) => Promise<Map<string, string>>,
): Promise<Page<LedgerRow>> {
  let select = pageById(db.selectFrom('ledger').selectAll(), query);
  if (query.tokenId) select = select.where('token_id', '=', query.tokenId);
  const rows = await select.execute();
  const named = await names([...new Set(rows.map((r) => r.token_id))]);
  return pageOf(
    rows,
    query.limit,
    (row) => ({
      id: row.id,
      at: iso(row.created_at),
      token: named.get(row.token_id) ?? row.token_id,
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
