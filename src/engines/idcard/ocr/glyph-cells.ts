/**
 * Where each character of a read line is printed in its crop. Chinese characters are square and
 * set apart, so the line's ink falls into runs of columns; a character made of parts side by side
 * (川, 儿) spans several runs, and the runs are shared out to the characters read so that no
 * character is wider than a character can be and the gaps left inside characters are the
 * narrowest possible.
 */
import type { Extent, InkMap } from './glyph-grid.js';
import type { Tones } from './raster.js';
import type { GreyRaster } from './tesseract.js';

/** The crop as ink densities, 0 paper to 1 ink. */
export function inkMapOf(raster: GreyRaster, tones: Tones): InkMap {
  const span = Math.max(1, tones.paper - tones.ink);
  const ink = new Float32Array(raster.data.length);
  for (let i = 0; i < ink.length; i++)
    ink[i] = Math.max(0, Math.min(1, (tones.paper - raster.data[i]!) / span));
  return { width: raster.width, height: raster.height, ink };
}

const INKED = 0.5;

/** The rows of the line: the longest band of inked rows, small gaps bridged (the crop's margin may catch a neighbouring line). */
function band(map: InkMap): [number, number] | undefined {
  let best: [number, number] | undefined;
  let start = -1;
  let last = -1;
  for (let y = 0; y <= map.height; y++) {
    let inked = false;
    for (let x = 0; y < map.height && x < map.width && !inked; x++)
      inked = map.ink[y * map.width + x]! >= INKED;
    if (inked) {
      if (start < 0 || y - last > 3) start = y;
      last = y;
    }
    if (start >= 0 && (y === map.height || (!inked && y - last > 3))) {
      if (!best || last + 1 - start > best[1] - best[0]) best = [start, last + 1];
      start = -1;
    }
  }
  return best;
}

/** A character's widest ink, in line heights: a Chinese character is square, a digit or letter narrower. */
const widest = (char: string) => (/[\u3400-\u9fff]/.test(char) ? 1.15 : 0.8);

/** The box of each of `chars` in the crop, or undefined when the ink cannot be shared out among them. */
export function glyphCells(map: InkMap, chars: readonly string[]): Extent[] | undefined {
  const rows = band(map);
  if (!rows || chars.length === 0) return undefined;
  const [top, bottom] = rows;
  const runs: [number, number][] = [];
  for (let x = 0; x < map.width; x++) {
    let inked = false;
    for (let y = top; y < bottom && !inked; y++) inked = map.ink[y * map.width + x]! >= INKED;
    const open = runs.at(-1);
    if (inked) {
      if (open && open[1] === x) open[1] = x + 1;
      else runs.push([x, x + 1]);
    }
  }
  const n = chars.length;
  const m = runs.length;
  if (m < n) return undefined;
  const height = bottom - top;
  // cost[i][j]: the least gap left inside characters when the first i characters take the first j runs.
  const cost = Array.from({ length: n + 1 }, () => new Float64Array(m + 1).fill(Infinity));
  const from = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  cost[0]![0] = 0;
  for (let i = 1; i <= n; i++) {
    const limit = widest(chars[i - 1]!) * height;
    for (let j = i; j <= m - (n - i); j++) {
      let inked = 0;
      for (let k = j - 1; k >= i - 1; k--) {
        inked += runs[k]![1] - runs[k]![0];
        const width = runs[j - 1]![1] - runs[k]![0];
        if (width > limit && k < j - 1) break;
        const total = cost[i - 1]![k]! + width - inked;
        if (total < cost[i]![j]!) {
          cost[i]![j] = total;
          from[i]![j] = k;
        }
      }
    }
  }
  if (cost[n]![m] === Infinity) return undefined;
  const cells: Extent[] = [];
  for (let i = n, j = m; i > 0; i--) {
    const k = from[i]![j]!;
    cells.unshift({ left: runs[k]![0], right: runs[j - 1]![1], top, bottom });
    j = k;
  }
  return cells;
}
