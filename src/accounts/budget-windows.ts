/**
 * Calendar windows of budgets: a day, a week (from Monday) or a month, whose boundaries are
 * midnights in the billing time zone (`billing.time_zone`), so that an operator in Shanghai and
 * their customers see a day end at their midnight. A boundary is found from the zone's offset at
 * that instant, read again once, so that a window that crosses a change of summer time still
 * starts and ends at local midnight.
 */

export type Period = 'day' | 'week' | 'month';
export const PERIODS: readonly Period[] = ['day', 'week', 'month'];

export interface Window {
  startsAt: number;
  resetsAt: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at `at`, as the UTC instant that shows the same digits. */
function wallClock(at: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatIn(zone).formatToParts(at)) parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The instant at which the wall clock in `zone` shows local midnight of this UTC-digit date. */
function midnight(year: number, month: number, day: number, zone: string): number {
  const digits = Date.UTC(year, month, day);
  let at = digits - (wallClock(digits, zone) - digits);
  // The offset may differ at the guessed instant (summer time): correct once by it.
  at = digits - (wallClock(at, zone) - at);
  return at;
}

/** The window of `period` that holds `at`, with its boundaries in `zone`. */
export function windowOf(period: Period, at: number, zone: string): Window {
  const local = new Date(wallClock(at, zone));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  const day = local.getUTCDate();
  if (period === 'day') {
    return { startsAt: midnight(year, month, day, zone), resetsAt: midnight(year, month, day + 1, zone) };
  }
  if (period === 'week') {
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    return {
      startsAt: midnight(year, month, day - sinceMonday, zone),
      resetsAt: midnight(year, month, day - sinceMonday + 7, zone),
    };
  }
  return { startsAt: midnight(year, month, 1, zone), resetsAt: midnight(year, month + 1, 1, zone) };
}
