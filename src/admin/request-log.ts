/**
 * The request log: one row per authenticated request (the usage rows), newest first, with the
 * operation's price key, the status it was answered with, what it kept, its latency, its error
 * code and the task it created. Pages follow the rows' ids, which sort by time, so a page is one
 * index range whatever the filters.
 */
import type { Db } from '../store/database.js';
import { OPERATIONS } from '../contract/table.js';
import { invalid, iso, pageOf, type Page } from './values.js';
import { pageById } from './keyset-page.js';

export interface RequestRow {
  trace_id: string;
  at: string | null;
  token: string;
  operation: string;
  model: string | null;
  status: number;
  success: boolean;
  credits: number;
  /** The price quoted for the task the request created; null for a synchronous request. */
  quote: number | null;
  latency_ms: number;
  error_code: string | null;
  task_id: string | null;
}

/** `2xx`, `4xx`, `5xx`: every status of the class. */
export type StatusFilter = number | `${1 | 2 | 3 | 4 | 5}xx`;

export interface RequestQuery {
  tokenId?: string;
  /** A price key (`serp.web`) or an operation path. */
  operation?: string;
  status?: StatusFilter;
  before?: string;
  limit: number;
}

const PRICE_KEY = new Map(OPERATIONS.map((o) => [o.path, o.priceKey]));
/** Every path of a price key (a key may name several paths). */
const PATHS = new Map<string, string[]>();
for (const o of OPERATIONS) PATHS.set(o.priceKey, [...(PATHS.get(o.priceKey) ?? []), o.path]);

/** The operation's price key, as the admin API names operations everywhere. */
export function priceKeyOf(path: string): string {
  return PRICE_KEY.get(path) ?? path;
}

/** The paths that a price key or a path names; the `operation` filter refused when it is neither. */
export function pathsOf(operation: string): string[] {
  const paths = PATHS.get(operation) ?? (PRICE_KEY.has(operation) ? [operation] : undefined);
  if (paths === undefined)
    throw invalid(
      'operation',
      `${operation} is neither a price key (serp.web) nor an operation path (/serp/web)`,
    );
  return paths;
}

export async function requestLog(
  db: Db,
  query: RequestQuery,
  names: (ids: string[]) => Promise<Map<string, string>>,
): Promise<Page<RequestRow>> {
  let select = pageById(
    db
      .selectFrom('usage')
      .select([
        'id',
        'trace_id',
        'created_at',
        'token_id',
        'operation',
        'model',
        'status',
        'credits',
        'quote',
        'latency_ms',
        'error_code',
        'task_id',
      ]),
    query,
  );
  if (query.tokenId) select = select.where('token_id', '=', query.tokenId);
  if (query.operation) select = select.where('operation', 'in', pathsOf(query.operation));
  const status = query.status;
  if (typeof status === 'number') select = select.where('status', '=', status);
  else if (status !== undefined) {
    const low = Number(status[0]) * 100;
    select = select.where('status', '>=', low).where('status', '<', low + 100);
  }
  const rows = await select.execute();
  const named = await names([...new Set(rows.map((r) => r.token_id))]);
  return pageOf(
    rows,
    query.limit,
    (row) => ({
      trace_id: row.trace_id,
      at: iso(row.created_at),
      token: named.get(row.token_id) ?? row.token_id,
      operation: priceKeyOf(row.operation),
      model: row.model,
      status: row.status,
      // A task streamed or not waited for was answered 200 and may still have failed.
      success: row.status < 400 && row.error_code === null,
      credits: Number(row.credits),
      quote: row.quote === null || row.quote === undefined ? null : Number(row.quote),
      latency_ms: Math.round(Number(row.latency_ms) * 10) / 10,
      error_code: row.error_code ?? null,
      task_id: row.task_id ?? null,
    }),
    (row) => [row.id],
  );
}
