/**
 * Usage by day: the raw usage rows summed per day, token, operation and model with their latency
 * histograms, and the marker up to which they are rolled up into usage_daily. The rollup
 * (watchers/retention.ts) writes these parts; the usage report (admin/usage-report.ts) reads them
 * beside the rolled-up days.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/tables.js';
import { add, BUCKET_SQL, type Histogram } from './latency-histogram.js';
import { MODEL_CHARS } from './usage.js';

export const DAY_MS = 86_400_000;

/**
 * Usage rows before this time (unix ms) are in usage_daily: whole days before its own, and its
 * day up to it. 0 when nothing is rolled up.
 */
export const ROLLED_THROUGH = 'usage_rolled_through';

export async function rolledThrough(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('markers')
    .select('value')
    .where('name', '=', ROLLED_THROUGH)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

export const dayOf = (ms: number) => ms - (ms % DAY_MS);

export interface Part {
  day: number;
  token_id: string;
  operation: string;
  model: string;
  requests: number;
  succeeded: number;
  failed: number;
  credits: number;
  latency: Histogram;
}

/**
 * The raw rows in [from, to) per day, token, operation and model, with their histograms; added
 * to the parts of `into` where given, so that a range read in pieces sums up as one.
 */
export async function rawParts(
  db: Kysely<Database>,
  range: { from: number; to?: number; tokenId?: string; operations?: string[] },
  into = new Map<string, Part>(),
): Promise<Part[]> {
  let select = db
    .selectFrom('usage')
    .select([
      sql<number>`created_at - created_at % ${DAY_MS}`.as('day'),
      'token_id',
      'operation',
      // Cut again: rows written before names were bounded must not stop the rollup for good.
      sql<string>`substr(coalesce(model, ''), 1, ${sql.lit(MODEL_CHARS)})`.as('model'),
      sql<number>`${sql.raw(BUCKET_SQL)}`.as('bucket'),
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(case when status < 400 and error_code is null then 1 else 0 end)`.as('succeeded'),
      sql<number>`sum(credits)`.as('credits'),
    ])
    .where('created_at', '>=', range.from)
    .groupBy([sql`1`, 'token_id', 'operation', sql`4`, sql`5`]);
  if (range.to !== undefined) select = select.where('created_at', '<', range.to);
  if (range.tokenId) select = select.where('token_id', '=', range.tokenId);
  if (range.operations) select = select.where('operation', 'in', range.operations);
  const parts = into;
  for (const row of await select.execute()) {
    const key = `${row.day}\u0000${row.token_id}\u0000${row.operation}\u0000${row.model}`;
    let part = parts.get(key);
    if (!part) {
      part = {
        day: Number(row.day),
        token_id: row.token_id,
        operation: row.operation,
        model: row.model,
        requests: 0,
        succeeded: 0,
        failed: 0,
        credits: 0,
        latency: {},
      };
      parts.set(key, part);
    }
    part.requests += Number(row.requests);
    part.succeeded += Number(row.succeeded);
    part.failed += Number(row.requests) - Number(row.succeeded);
    part.credits += Number(row.credits);
    add(part.latency, Number(row.bucket), Number(row.requests));
  }
  return [...parts.values()];
}
