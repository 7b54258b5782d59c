/**
 * One reading from several: the same line recognised from differently prepared crops misreads
 * different characters, so the readings are aligned character by character (on the one closest
 * to all others) and each position takes the character most of them, weighted by confidence,
 * agree on.
 */

/** A recognised character with the confidence of the word it was read in. */
export interface ReadChar {
  char: string;
  weight: number;
}

export type Reading = readonly ReadChar[];

function distance(a: Reading, b: Reading): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(
        Math.min(
          previous[j]! + 1,
          current[j - 1]! + 1,
          previous[j - 1]! + (a[i - 1]!.char === b[j - 1]!.char ? 0 : 1),
        ),
      );
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * `other` aligned to `pivot`: for each pivot position the character read there (undefined when
 * `other` skipped it), and for each gap between pivot positions (pivot.length + 1 of them) what
 * `other` read in addition there.
 */
function align(pivot: Reading, other: Reading): { at: (ReadChar | undefined)[]; extra: ReadChar[][] } {
  const n = pivot.length;
  const m = other.length;
  const cost = Array.from({ length: n + 1 }, (_, i) =>
    new Int32Array(m + 1).map((_, j) => (i === 0 ? j : 0)),
  );
  for (let i = 1; i <= n; i++) {
    cost[i]![0] = i;
    for (let j = 1; j <= m; j++) {
      const same = pivot[i - 1]!.char === other[j - 1]!.char ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + same);
    }
  }
  const at: (ReadChar | undefined)[] = new Array(n).fill(undefined);
  const extra: ReadChar[][] = Array.from({ length: n + 1 }, () => []);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = cost[i]![j]!;
    if (
      i > 0 &&
      j > 0 &&
      here === cost[i - 1]![j - 1]! + (pivot[i - 1]!.char === other[j - 1]!.char ? 0 : 1)
    ) {
      at[i - 1] = other[j - 1];
      i--;
      j--;
    } else if (i > 0 && here === cost[i - 1]![j]! + 1) {
      i--;
    } else {
      extra[i]!.unshift(other[j - 1]!);
      j--;
    }
  }
  return { at, extra };
}

/** The characters most readings agree on; a tie goes to the character read with more confidence. */
export function consensus(readings: readonly Reading[]): Reading {
  const present = readings.filter((r) => r.length > 0);
  if (present.length <= 1) return present[0] ?? [];
  const totals = present.map((r) => present.reduce((sum, o) => sum + distance(r, o), 0));
  const pivotIndex = totals.indexOf(Math.min(...totals));
  const pivot = present[pivotIndex]!;
  const others = present.filter((_, k) => k !== pivotIndex).map((r) => align(pivot, r));
  const half = present.length / 2;
  const result: ReadChar[] = [];
  const vote = (choices: (ReadChar | undefined)[]): ReadChar | undefined => {
    const score = new Map<string, number>();
    for (const c of choices) {
      const key = c?.char ?? '';
      score.set(key, (score.get(key) ?? 0) + 1 + (c?.weight ?? 50) / 1000);
    }
    const [best] = [...score.entries()].sort((a, b) => b[1] - a[1]);
    if (!best || best[0] === '') return undefined;
    const weights = choices.filter((c) => c?.char === best[0]).map((c) => c!.weight);
    return { char: best[0], weight: weights.reduce((a, b) => a + b, 0) / weights.length };
  };
  for (let p = 0; p <= pivot.length; p++) {
    // Characters some readings have between pivot positions: kept when most readings have them.
    const inserted = others.map((o) => o.extra[p]!);
    const longest = Math.max(0, ...inserted.map((e) => e.length));
    for (let k = 0; k < longest; k++) {
      const choices = inserted.map((e) => e[k]);
      const count = choices.filter((c) => c !== undefined).length;
      if (count > half) {
        const chosen = vote(choices.filter((c) => c !== undefined));
        if (chosen) result.push(chosen);
      }
    }
    if (p === pivot.length) break;
    const chosen = vote([pivot[p], ...others.map((o) => o.at[p])]);
    if (chosen) result.push(chosen);
  }
  return result;
}
