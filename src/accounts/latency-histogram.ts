/**
 * Latency histograms with buckets 10 % wide, so that percentiles can be merged: the usage report
 * adds the histograms of raw rows and of daily rollups, and answers the same p50 and p95 before
 * and after the raw rows are pruned. A percentile is the upper edge of its bucket, at most 10 %
 * above the true value.
 */

const RATIO = 1.1;
/** Buckets past 1 ms: 1.1^200 ms is some 50 hours, longer than any request runs. */
const TOP = 200;

/** Bucket index → count; sparse, as JSON keeps it. */
export type Histogram = Record<string, number>;

/** The bucket of a latency, as SQL computes it (bucketSql) and JavaScript reads it back. */
export function bucketOf(ms: number): number {
  if (ms <= 1) return 0;
  return Math.min(TOP, Math.ceil(Math.log(ms) / Math.log(RATIO)));
}

/**
 * The same bucket in SQL, for SQLite (its math functions) and PostgreSQL alike; `add` caps it,
 * which SQL would spell differently on each.
 */
export const BUCKET_SQL = `case when latency_ms <= 1 then 0 else ceil(ln(latency_ms) / ${Math.log(RATIO)}) end`;

export function add(into: Histogram, bucket: number, count: number): void {
  const capped = Math.min(TOP, Number(bucket));
  into[capped] = (into[capped] ?? 0) + Number(count);
}

export function merge(into: Histogram, other: Histogram): void {
  for (const [bucket, count] of Object.entries(other)) add(into, Number(bucket), count);
}

/** The latency below which a fraction `q` of the requests answered, in ms (one decimal). */
export function percentile(histogram: Histogram, q: number): number | null {
  const buckets = Object.entries(histogram)
    .map(([bucket, count]) => [Number(bucket), count] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= rank) return Math.round(RATIO ** bucket * 10) / 10;
  }
  return null;
}
