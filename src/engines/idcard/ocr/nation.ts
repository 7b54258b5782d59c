/**
 * The 民族 value snapped to the list of the 56 groups: the recogniser may miss a stroke (汊 for 汉)
 * or a character, and the closest entry by edit distance is what was printed.
 */
import { NATIONS } from '../nations.js';

/** Levenshtein distance between two strings of characters (code points). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[y.length]!;
}

export interface Snapped {
  nation: string;
  /** Edit distance from what was read; 0 when it was read exactly. */
  distance: number;
}

/**
 * The group whose name is closest to `read` (a trailing 族 and the 民族 label dropped first), or
 * undefined when nothing was read. Ties go to the earlier entry, the more populous group.
 */
export function snapNation(read: string): Snapped | undefined {
  const text = read.replace(/^民?族/, '').replace(/族$/, '');
  if (!text) return undefined;
  let best: Snapped | undefined;
  for (const nation of NATIONS) {
    const distance = editDistance(text, nation);
    if (!best || distance < best.distance) best = { nation, distance };
  }
  return best;
}
