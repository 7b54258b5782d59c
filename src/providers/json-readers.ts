/**
 * Readers of the loosely typed JSON upstreams answer with. Each returns a value of the wanted type
 * or undefined, so that a member an upstream left out or sent malformed is omitted rather than
 * invented. Shared by every capability's channels.
 */
export type Json = Record<string, unknown>;

export function objectOf(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The objects in `value` when it is an array; nothing otherwise. */
export function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(objectOf).filter((item) => item !== undefined) : [];
}

export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** A number, also from its text (`"52.52"`). */
export function numberOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A whole number, also from its text with thousands separators (`"1,234"`). */
export function integerOf(value: unknown): number | undefined {
  const n = numberOf(typeof value === 'string' ? value.replace(/,/g, '') : value);
  return n === undefined ? undefined : Math.round(n);
}

/** An object of scalars as an object of strings; absent when nothing in it is a scalar. */
export function textRecordOf(value: unknown): Record<string, string> | undefined {
  const entries = Object.entries(objectOf(value) ?? {}).flatMap(([key, v]) => {
    const text = typeof v === 'boolean' ? String(v) : textOf(v);
    return text === undefined ? [] : [[key, text] as const];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** `value` without its undefined members, so that optional members are absent, not null. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
