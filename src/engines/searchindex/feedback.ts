import type { RankedId } from './types.js';

/**
 * RM3-style expansion: the top documents of a first ranking vote for their terms, each term by
 * its share of the document. A relevance model weighs a document by the likelihood of the query
 * given it, P(Q|D); a BM25 score is a log-odds sum over the query's words, so its exponential
 * stands in for that likelihood: each document votes exp(sharpness × (score − best)). Votes fall
 * quickly below the best few documents, where a vote proportional to the score would give the
 * fifth document nearly the say of the first. Terms are the index's own stemmed tokens, so
 * "flows" and "flow" count once.
 */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * `top` holds scores summed over the query's words (not averaged), so that a longer query,
 * which separates documents more surely, also weighs them more unequally.
 */
export function expansionTerms(
  top: readonly RankedId[],
  termsOf: (id: number) => ReadonlyMap<string, number>,
  skip: ReadonlySet<string>,
  count: number,
  sharpness: number,
): WeightedTerm[] {
  if (top.length === 0 || count <= 0) return [];
  const best = Math.max(...top.map((hit) => hit.score));
  const votes = top.map((hit) => Math.exp(sharpness * (hit.score - best)));
  const total = votes.reduce((sum, vote) => sum + vote, 0);
  const weights = new Map<string, number>();
  top.forEach((hit, i) => {
    const terms = termsOf(hit.id);
    let length = 0;
    for (const n of terms.values()) length += n;
    const vote = votes[i]! / total;
    for (const [term, n] of terms) {
      // Numbers and one- or two-letter tokens say little about a topic.
      if (term.length < 3 || skip.has(term) || /^\d+$/.test(term)) continue;
      weights.set(term, (weights.get(term) ?? 0) + (vote * n) / length);
    }
  });
  const chosen = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count);
  const sum = chosen.reduce((s, [, w]) => s + w, 0);
  return chosen.map(([term, weight]) => ({ term, weight: weight / sum }));
}
