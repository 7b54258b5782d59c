/**
 * The 民族 value snapped to the list of the 56 groups: the recogniser may miss a stroke (汊 for 汉)
 * or a character, and the closest entry by edit distance is what was printed. Where the recogniser
 * found another character nearly as likely (土 under 士), putting that one in costs half; a
 * character missed costs less than one misread.
 */
import { NATIONS } from '../nations.js';

/** The cost of reading a character where the recogniser had the printed one as an alternative. */
const LOOK_ALIKE = 0.5;

/**
 * The cost of a character of b missing from a: the recogniser drops a rare character (祜, 仫) that
 * stays under its floor more often than it reads one character as another, so 拉 is 拉祜, not 汉.
 */
const MISSED = 0.75;

/** Levenshtein distance between two strings of characters (code points). */
export function editDistance(
  a: string,
  b: string,
  alternatives: readonly (readonly string[])[] = [],
): number {
  const x = [...a];
  const y = [...b];
  const substitution = (i: number, j: number) =>
    x[i] === y[j] ? 0 : alternatives[i]?.includes(y[j]!) ? LOOK_ALIKE : 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j * MISSED);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substituted = previous[j - 1]! + substitution(i - 1, j - 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + MISSED, substituted));
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
 * undefined when nothing was read; `alternatives`: per character read, the others the recogniser
 * also saw there. Ties go to the earlier entry, the more populous group.
 */
export function snapNation(
  read: string,
  alternatives: readonly (readonly string[])[] = [],
): Snapped | undefined {
  const chars = [...read];
  const lead = read.match(/^民?族/)?.[0].length ?? 0;
  const trail = chars.length > lead && chars[chars.length - 1] === '族' ? 1 : 0;
  const text = chars.slice(lead, chars.length - trail).join('');
  const seen = alternatives.slice(lead, chars.length - trail);
  if (!text) return undefined;
  let best: Snapped | undefined;
  for (const nation of NATIONS) {
    const distance = editDistance(text, nation, seen);
    if (!best || distance < best.distance) best = { nation, distance };
  }
  return best;
}
