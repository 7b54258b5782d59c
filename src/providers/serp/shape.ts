/**
 * Reading the loosely typed JSON of search upstreams into the contract's shape, with the readers
 * of json-readers.ts; `numbered` gives the ranks, counted from the page's offset so that they
 * continue across pages whatever numbering the upstream used.
 */
import type { SerpResult } from './types.js';

/** One item of the result array `K`, e.g. `ItemOf<'organic'>`. */
export type ItemOf<K extends keyof SerpResult> = NonNullable<SerpResult[K]> extends (infer U)[] ? U : never;

/** The items that could be read, ranked from `offset + 1` on. */
export function numbered<T>(items: (Omit<T, 'position'> | undefined)[], offset: number): T[] {
  return items
    .filter((item) => item !== undefined)
    .map((item, i) => ({ ...item, position: offset + i + 1 }) as T);
}
