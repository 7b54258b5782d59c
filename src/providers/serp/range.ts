/**
 * The `range` of a search: a recent period (`h` … `y`, also written `qdr:h` …) or a span of
 * calendar days, both ends included, in UTC. Each channel translates it into its upstream's terms
 * and, where the upstream cannot express it, filters on result dates; the local index compares
 * it with its records' dates.
 */
export type Recent = 'h' | 'd' | 'w' | 'm' | 'y';

export type SearchRange = { recent: Recent } | { from: string; to: string };

const RECENT = /^(?:qdr:)?([hdwmy])$/;
const DAYS = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;
const DAY_MS = 86_400_000;

/** How far back each recent period reaches. */
export const RECENT_MS: Readonly<Record<Recent, number>> = {
  h: 3_600_000,
  d: DAY_MS,
  w: 7 * DAY_MS,
  m: 31 * DAY_MS,
  y: 366 * DAY_MS,
};

export function parseRange(range: string | undefined): SearchRange | undefined {
  if (range === undefined) return undefined;
  const recent = RECENT.exec(range);
  if (recent) return { recent: recent[1] as Recent };
  const days = DAYS.exec(range);
  // The contract validated the range before any channel sees it.
  if (!days) throw new Error(`range ${range} was not validated`);
  return { from: days[1] ?? '', to: days[2] ?? '' };
}

/** The instants `[start, end)` a span of days covers. */
export function spanOf(range: { from: string; to: string }): { start: number; end: number } {
  return { start: Date.parse(`${range.from}T00:00:00Z`), end: Date.parse(`${range.to}T00:00:00Z`) + DAY_MS };
}

/** An ISO 8601 date or date-time as epoch milliseconds; one without a zone is taken as UTC. */
export function instantOf(text: string): number | undefined {
  const zoneless = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const ms = Date.parse(zoneless ? `${text}Z` : text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The range as dates the local index compares its records' ISO dates with. */
export function dateRange(
  range: string | undefined,
  now = Date.now(),
): { from?: string; to?: string } | undefined {
  const parsed = parseRange(range);
  if (!parsed) return undefined;
  if ('recent' in parsed) return { from: new Date(now - RECENT_MS[parsed.recent]).toISOString() };
  return parsed;
}
