/**
 * What a search worker thread does: it opens the local index (once per file and options, on its
 * own SQLite connection) and answers searches as `LocalIndex` does on the thread that serves
 * requests. It only reads: the queries to remember are written by that thread, the index's one
 * writer (threads writing side by side wait on SQLite's lock, in sleeps of up to 100 ms).
 */
import { SearchIndex } from '../../engines/searchindex/index.js';
import { LocalIndex, type LocalIndexOptions } from './local.js';
import type { SerpQuery, SerpResult } from './types.js';

const opened = new Map<string, LocalIndex>();

function indexAt(file: string, options: LocalIndexOptions): LocalIndex {
  const key = `${file}\n${JSON.stringify(options)}`;
  let index = opened.get(key);
  if (!index) {
    index = new LocalIndex(new SearchIndex(file), options);
    opened.set(key, index);
  }
  return index;
}

/** Opens the index ahead of the first search, so that a thread starting up costs no search time. */
export function open(file: string, options: LocalIndexOptions): void {
  indexAt(file, options);
}

/** The answer and how many hits it found (LocalIndex.answer). */
export function answer(
  file: string,
  options: LocalIndexOptions,
  query: SerpQuery,
  scope: string | undefined,
): Promise<{ result: SerpResult; found: number }> {
  return indexAt(file, options).answer(query, scope);
}
