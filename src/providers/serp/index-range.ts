/**
 * `range` as dates: h, d, w, m, y (or qdr:h …) reach back from now; YYYY-MM-DD..YYYY-MM-DD is a
 * closed span of days. ISO text compares in date order, which is how the index stores dates.
 */
import type { DateRange } from '../../engines/searchindex/index.js';

const SPAN_MS: Readonly<Record<string, number>> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 31 * 86_400_000,
  y: 366 * 86_400_000,
};

export function dateRange(range: string | undefined, now = Date.now()): DateRange | undefined {
  if (!range) return undefined;
  const custom = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(range);
  if (custom) return { from: custom[1], to: custom[2] };
  const span = SPAN_MS[range.replace(/^qdr:/, '')];
  if (span === undefined) throw new Error(`range ${range} was not validated`);
  return { from: new Date(now - span).toISOString() };
}
