/**
 * Lexical and semantic rankings fused by reciprocal rank fusion (Cormack et al., 2009): each of
 * the first results scores 1 / (k + its lexical rank) + weight / (k + its rank by meaning), the
 * cosine of its embedding with the query's. Ranks, not scores, are fused: BM25 scores and
 * cosines live on unrelated scales, and a rank needs no calibration per query. The query's
 * embedding first takes in those of the best lexical results (feedback, as RM3 does with terms):
 * a short query says little that a sentence encoder can place, the documents it found say more.
 */
import type { RankedId } from './types.js';

/** How the first results are reordered by meaning; the defaults are tuned on Cranfield's odd queries. */
export interface MeaningOptions {
  /** How many of the first results are reordered; the rest keep their places. */
  depth: number;
  /** Reciprocal rank fusion's constant: the larger, the less the very first ranks dominate. */
  fusionK: number;
  /** The rank by meaning's weight against the lexical rank's 1; 0 leaves the order lexical. */
  weight: number;
  /** The best lexical results whose embeddings join the query's. */
  feedbackDocs: number;
  /** Their mean's weight against the query's own embedding, 1. */
  feedbackWeight: number;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i]! * b[i]!;
  return sum;
}

/** The query's embedding with the feedback documents' mean added, at unit length again. */
export function withFeedback(
  query: Float32Array,
  first: readonly RankedId[],
  vectors: ReadonlyMap<number, Float32Array>,
  options: MeaningOptions,
): Float32Array {
  const voters = first.slice(0, options.feedbackDocs).flatMap((hit) => vectors.get(hit.id) ?? []);
  if (voters.length === 0 || options.feedbackWeight <= 0) return query;
  const sum = Float32Array.from(query);
  for (const vector of voters)
    for (let i = 0; i < sum.length; i += 1) sum[i]! += (options.feedbackWeight * vector[i]!) / voters.length;
  const norm = Math.sqrt(dot(sum, sum)) || 1;
  return sum.map((x) => x / norm);
}

/**
 * The first `depth` results reordered by fused ranks. A result without an embedding takes its
 * lexical rank as its rank by meaning: it neither gains nor loses by having none. The reordered
 * results take the scores they had among them in order, the best score first, so that scores
 * still fall with the order and stay above every result after them.
 */
export function fuse(
  first: readonly RankedId[],
  query: Float32Array,
  vectors: ReadonlyMap<number, Float32Array>,
  options: MeaningOptions,
): RankedId[] {
  const head = first.slice(0, options.depth);
  const similar = head
    .map((hit, rank) => ({ rank, vector: vectors.get(hit.id) }))
    .filter((entry): entry is { rank: number; vector: Float32Array } => entry.vector !== undefined)
    .map(({ rank, vector }) => ({ rank, cosine: dot(query, vector) }))
    .sort((a, b) => b.cosine - a.cosine || a.rank - b.rank);
  const meaningRank = head.map((_, rank) => rank);
  // Results with embeddings share out, by meaning, the ranks they hold between them.
  const held = similar.map((entry) => entry.rank).sort((a, b) => a - b);
  similar.forEach((entry, i) => (meaningRank[entry.rank] = held[i]!));
  const k = options.fusionK;
  const order = head
    .map((hit, rank) => ({
      hit,
      rank,
      fused: 1 / (k + rank + 1) + options.weight / (k + meaningRank[rank]! + 1),
    }))
    .sort((a, b) => b.fused - a.fused || a.rank - b.rank);
  return [...order.map(({ hit }, i) => ({ id: hit.id, score: head[i]!.score })), ...first.slice(head.length)];
}
