/**
 * How the admin API writes and reads its values: times in ISO 8601, list pages with an opaque
 * cursor, and the 400 and 404 answers that name the field or the thing.
 */
import { ServiceError } from '../errors.js';

export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}

export function invalid(field: string, rule: string): ServiceError {
  return new ServiceError('bad_request', `${field}: ${rule}`, { details: [{ field, rule }] });
}

export function notFound(what: string): ServiceError {
  return new ServiceError('not_found', `no ${what}`);
}

/** The latest time JavaScript's dates hold (year 275760). */
const MAX_TIME_MS = 8.64e15;

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * An ISO 8601 time → unix ms, NaN when it is none. A day the month does not have is refused:
 * `Date.parse` would roll 2030-02-31 over into March 3rd.
 */
export function isoTimeMs(text: string): number {
  const ms = Date.parse(text);
  const date = CALENDAR_DATE.exec(text);
  if (date === null || !Number.isFinite(ms)) return ms;
  const [year, month, day] = date.slice(1).map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const exists =
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day;
  return exists ? ms : NaN;
}

/** An `expires_at` as given (ISO 8601), in unix ms; null for never, undefined when not given. */
export function expiryOf(text: string | null | undefined): number | null | undefined {
  if (text === undefined || text === null) return text;
  const ms = isoTimeMs(text);
  if (!Number.isFinite(ms)) throw invalid('expires_at', 'must be an ISO 8601 time');
  return ms;
}

/** An ISO 8601 time or unix seconds → unix ms; the field named when it is neither. */
export function timeOf(field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : isoTimeMs(text);
  // Beyond the years a date can hold, a database column could not hold it either.
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS)
    throw invalid(field, 'must be an ISO 8601 time or unix seconds');
  return ms;
}

/** One page of a list, newest first, and the cursor of the next (null after the last). */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** A cursor is the sort key of the last row sent, opaque to clients. */
export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(
  text: string | undefined,
  shape: ('string' | 'number')[],
): (string | number)[] | undefined {
  if (text === undefined) return undefined;
  try {
    const parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(parts) &&
      parts.length === shape.length &&
      parts.every((part, i) => typeof part === shape[i])
    )
      return parts as (string | number)[];
  } catch {
    // Reported below, as any other cursor that this list did not hand out.
  }
  throw invalid('before', 'must be a cursor from the `next` of this list');
}

/** The rows of a page fetched with one extra, and the cursor that follows them. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  show: (row: R) => T,
  keyOf: (row: R) => (string | number)[],
): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { rows: kept.map(show), next: more && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
