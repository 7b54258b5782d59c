/**
 * Usage grouped by token, operation, model and day: requests, successes, failures, credits kept,
 * p50 and p95 latency. What is rolled up (watchers/retention.ts: everything up to a few minutes ago) is
 * read from the daily rows, the rest from the raw usage rows, so a report costs the same whether
 * or not the raw rows are still there; on rolled-up days `from` and `to` apply by whole days
 * (UTC). Latencies are merged
 * as histograms (accounts/latency-histogram.ts) on both sides, so the figures do not change when the raw
 * rows go.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../store/database.js';
import type { Database } from '../store/tables.js';
import { merge, percentile, type Histogram } from '../accounts/latency-histogram.js';
import { iso } from './values.js';
import { pathsOf, priceKeyOf } from './request-log.js';
import { dayOf, rawParts, rolledThrough, type Part } from '../accounts/usage-days.js';

export const GROUPS = ['token', 'operation', 'model', 'day'] as const;
export type Group = (typeof GROUPS)[number];

export interface UsageQuery {
  from?: number;
  to?: number;
  /** Token ids. */
  tokenId?: string;
  operation?: string;
  groupBy: Group[];
}

export interface UsageRow {
  token?: string;
  operation?: string;
  model?: string | null;
  day?: string;
  requests: number;
  succeeded: number;
  failed: number;
  credits: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

async function rolledParts(db: Kysely<Database>, query: UsageQuery, through: number): Promise<Part[]> {
  let select = db.selectFrom('usage_daily').selectAll().where('day', '<=', dayOf(through));
  if (query.from !== undefined) select = select.where('day', '>=', dayOf(query.from));
  if (query.to !== undefined) select = select.where('day', '<', query.to);
  if (query.tokenId) select = select.where('token_id', '=', query.tokenId);
  if (query.operation) select = select.where('operation', 'in', pathsOf(query.operation));
  return (await select.execute()).map((row) => ({
    day: Number(row.day),
    token_id: row.token_id,
    operation: row.operation,
    model: row.model,
    requests: Number(row.requests),
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    credits: Number(row.credits),
    latency: JSON.parse(row.latency) as Histogram,
  }));
}

/**
 * The daily rows up to the rollup marker and the raw rows after it. A rollup moves the marker
 * and writes its rows in one transaction; when the marker moved between the reads, the rows may
 * count some requests twice, and are read again. (A snapshot would do the same, but would hold
 * SQLite's one connection, which every request shares, for the whole report.)
 */
async function partsOf(db: Db, query: UsageQuery): Promise<Part[]> {
  for (;;) {
    const through = await rolledThrough(db);
    const rolled = through > 0 && (query.from ?? 0) < through ? await rolledParts(db, query, through) : [];
    const raw = await rawParts(db, {
      from: Math.max(query.from ?? 0, through),
      to: query.to,
      tokenId: query.tokenId,
      operations: query.operation ? pathsOf(query.operation) : undefined,
    });
    if ((await rolledThrough(db)) === through) return [...rolled, ...raw];
  }
}

/** The grouped rows (`operation` as its price key, `serp.web`), biggest spenders first; `names` turns token ids into names. */
export async function usageReport(
  db: Db,
  query: UsageQuery,
  names: (ids: string[]) => Promise<Map<string, string>>,
): Promise<UsageRow[]> {
  const parts = await partsOf(db, query);
  const groups = new Map<string, { row: UsageRow; latency: Histogram; tokenId?: string }>();
  for (const part of parts) {
    const operation = priceKeyOf(part.operation);
    const key = query.groupBy
      .map((g) =>
        g === 'token' ? part.token_id : g === 'day' ? part.day : g === 'operation' ? operation : part.model,
      )
      .join('\u0000');
    let group = groups.get(key);
    if (!group) {
      // The group's members first, in the order the report names them, then its figures.
      const row: UsageRow = {
        ...(query.groupBy.includes('operation') ? { operation } : {}),
        ...(query.groupBy.includes('model') ? { model: part.model === '' ? null : part.model } : {}),
        ...(query.groupBy.includes('day') ? { day: (iso(part.day) as string).slice(0, 10) } : {}),
        requests: 0,
        succeeded: 0,
        failed: 0,
        credits: 0,
        p50_ms: null,
        p95_ms: null,
      };
      group = { row, latency: {}, ...(query.groupBy.includes('token') ? { tokenId: part.token_id } : {}) };
      groups.set(key, group);
    }
    group.row.requests += part.requests;
    group.row.succeeded += part.succeeded;
    group.row.failed += part.failed;
    group.row.credits += part.credits;
    merge(group.latency, part.latency);
  }
  const tokenIds = [...new Set([...groups.values()].flatMap((g) => (g.tokenId ? [g.tokenId] : [])))];
  const named = tokenIds.length > 0 ? await names(tokenIds) : new Map<string, string>();
  const rows = [...groups.values()].map(({ row, latency, tokenId }) => {
    const out: UsageRow =
      tokenId !== undefined ? { token: named.get(tokenId) ?? tokenId, ...row } : { ...row };
    out.p50_ms = percentile(latency, 0.5);
    out.p95_ms = percentile(latency, 0.95);
    return out;
  });
  // Days in order; within a day (or without days), the biggest spenders and users first.
  return rows.sort(
    (a, b) => (a.day ?? '').localeCompare(b.day ?? '') || b.credits - a.credits || b.requests - a.requests,
  );
}

const CSV_COLUMNS = ['requests', 'succeeded', 'failed', 'credits', 'p50_ms', 'p95_ms'] as const;

/**
 * A cell of the CSV. Text that a spreadsheet would read as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return: a client chooses its model's name) is prefixed with `'`
 * and quoted, as OWASP advises against CSV injection; figures are numbers and stay as they are.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  const inert = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return inert !== text || /[",\n\r]/.test(text) ? `"${inert.replace(/"/g, '""')}"` : text;
}

/** The same rows as CSV, one column per group and figure, with a header line. */
export function usageCsv(rows: UsageRow[], groupBy: Group[]): string {
  const columns = [...groupBy, ...CSV_COLUMNS];
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c as keyof UsageRow])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** What each token spent (credits kept) and when it was last used, over all its usage. */
export async function spentAndLastUse(
  db: Db,
  tokenIds: string[],
): Promise<Map<string, { spent: number; lastUsedAt: number | null }>> {
  const out = new Map<string, { spent: number; lastUsedAt: number | null }>();
  if (tokenIds.length === 0) return out;
  const through = await rolledThrough(db);
  const [raw, rolled] = await Promise.all([
    db
      .selectFrom('usage')
      .select([
        'token_id',
        sql<number>`coalesce(sum(credits), 0)`.as('spent'),
        sql<number>`max(created_at)`.as('last'),
      ])
      .where('token_id', 'in', tokenIds)
      .where('created_at', '>=', through)
      .groupBy('token_id')
      .execute(),
    through > 0
      ? db
          .selectFrom('usage_daily')
          .select([
            'token_id',
            sql<number>`coalesce(sum(credits), 0)`.as('spent'),
            sql<number>`max(day)`.as('last'),
          ])
          .where('token_id', 'in', tokenIds)
          .where('day', '<=', dayOf(through))
          .groupBy('token_id')
          .execute()
      : Promise.resolve([]),
  ]);
  for (const row of rolled)
    out.set(row.token_id, {
      spent: Number(row.spent),
      lastUsedAt: row.last === null ? null : Number(row.last),
    });
  for (const row of raw) {
    const earlier = out.get(row.token_id);
    out.set(row.token_id, {
      spent: (earlier?.spent ?? 0) + Number(row.spent),
      lastUsedAt: row.last === null ? (earlier?.lastUsedAt ?? null) : Number(row.last),
    });
  }
  return out;
}
