/**
 * Reciprocal rank fusion of the lexical ranking with the rank by meaning (fusion.ts), on vectors
 * made by hand: what moves, what keeps its place, and the scores handed out after.
 */
import { describe, expect, it } from 'vitest';
import { fuse, withFeedback, type MeaningOptions } from '../../src/engines/searchindex/fusion.js';

const OPTIONS: MeaningOptions = { depth: 3, fusionK: 1, weight: 2, feedbackDocs: 0, feedbackWeight: 0 };
const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (x) => x / norm);
};
const first = [
  { id: 1, score: 9 },
  { id: 2, score: 8 },
  { id: 3, score: 7 },
  { id: 4, score: 1 },
];
const query = unit(1, 0);
const vectors = new Map([
  [1, unit(0, 1)],
  [2, unit(0.2, 1)],
  [3, unit(1, 0.1)],
  [4, unit(1, 0)],
]);

describe('fusing the lexical ranking with the rank by meaning', () => {
  it('moves up the result closest in meaning, within the depth only, scores still falling', () => {
    const fused = fuse(first, query, vectors, OPTIONS);
    // 3: 1/(1+3) + 2/(1+1) = 1.25; 1 and 2 tie at 1, the lexical rank settles it.
    expect(fused.map((hit) => hit.id)).toEqual([3, 1, 2, 4]);
    // The fourth is past the depth: the closest of all, it keeps its place and its score.
    expect(fused.map((hit) => hit.score)).toEqual([9, 8, 7, 1]);
  });

  it('leaves the order as it was at weight 0, and a result without an embedding in its lexical rank', () => {
    expect(fuse(first, query, vectors, { ...OPTIONS, weight: 0 })).toEqual(first);
    const without = new Map([...vectors].filter(([id]) => id !== 3));
    expect(fuse(first, query, without, OPTIONS).map((hit) => hit.id)).toEqual([2, 1, 3, 4]);
  });

  it("turns the query's embedding toward the best results' with feedback", () => {
    const turned = withFeedback(query, first, vectors, { ...OPTIONS, feedbackDocs: 1, feedbackWeight: 1 });
    expect(Math.hypot(...turned)).toBeCloseTo(1, 5);
    expect(turned[1]).toBeGreaterThan(0.5);
    expect(withFeedback(query, first, vectors, OPTIONS)).toBe(query);
  });
});
