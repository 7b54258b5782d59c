import type { RankedId } from './types.js';

/**
 * RM3-style expansion: the top documents of a first ranking vote for their terms, each document
 * in proportion to its score, each term by its share of the document. Terms are the index's own
 * stemmed tokens, so "flows" and "flow" count once.
 */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export function expansionTerms(
  top: readonly RankedId[],
  termsOf: (id: number) => ReadonlyMap<string, number>,
  skip: ReadonlySet<string>,
  count: number,
): WeightedTerm[] {
  const total = top.reduce((sum, hit) => sum + hit.score, 0);
  if (total <= 0 || count <= 0) return [];
  const weights = new Map<string, number>();
  for (const hit of top) {
    const terms = termsOf(hit.id);
    let length = 0;
    for (const n of terms.values()) length += n;
    for (const [term, n] of terms) {
      // Numbers and one- or two-letter tokens say little about a topic.
      if (term.length < 3 || skip.has(term) || /^\d+$/.test(term)) continue;
      weights.set(term, (weights.get(term) ?? 0) + (hit.score / total) * (n / length));
    }
  }
  const best = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count);
  const sum = best.reduce((s, [, w]) => s + w, 0);
  return best.map(([term, weight]) => ({ term, weight: weight / sum }));
}
