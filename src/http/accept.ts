/**
 * Content negotiation on the `accept` header: picks the best media type an operation can answer
 * with, honouring q-values and wildcards. No header (or `*\/*`) means the operation's default.
 */
import type { MediaType } from '../contract/types.js';

interface Range {
  type: string;
  q: number;
  order: number;
}

function parse(header: string): Range[] {
  return header
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const qParam = params.find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((r) => r.type !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

function matches(range: string, type: MediaType): boolean {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

/** The media type to answer with, or null when none of `allowed` is acceptable (406). */
export function negotiate(header: string | undefined, allowed: readonly MediaType[]): MediaType | null {
  if (header === undefined || header.trim() === '') return allowed[0] ?? null;
  for (const range of parse(header)) {
    const found = allowed.find((type) => matches(range.type, type));
    if (found) return found;
  }
  return null;
}
