/**
 * Lines of print inside a region, from its row profile of ink: where a value sits a few pixels
 * off its expected place (another printer, a slightly off rectification), the crop follows the
 * print rather than the layout, and a multi-line address is cut into its lines.
 */
import type { Box } from '../layout.js';
import type { Tones } from './raster.js';
import type { GreyRaster } from './tesseract.js';

export interface TextLine extends Box {
  /** Ink pixels on the line. */
  mass: number;
}

interface Band {
  top: number;
  bottom: number;
}

/** Below this contrast between paper and ink the region is taken to be blank. */
const MIN_CONTRAST = 40;

/**
 * The lines of print in `raster`, top to bottom. `textHeight` is the expected height of a line
 * of characters: bands much thinner are specks or the edge of a neighbouring line, bands
 * split by a gap inside a character (二, 三) are joined back when together they are one line tall,
 * and a band too tall for one line (lines printed close enough to touch) is cut at its thinnest
 * row. A line ends where a gap wider than a character opens: what lies beyond it (the edge of a
 * photo printed close beside the value) is not the value's print.
 */
export function textLines(
  raster: GreyRaster,
  tones: Tones,
  textHeight: number,
  widestGap = WIDEST_GAP,
): TextLine[] {
  if (tones.paper - tones.ink < MIN_CONTRAST) return [];
  const threshold = (tones.paper + tones.ink) / 2;
  const { width, height, data } = raster;
  const rows = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let count = 0;
    for (let x = 0; x < width; x++) if (data[y * width + x]! < threshold) count++;
    rows[y] = count;
  }
  const minRow = Math.max(2, Math.round(width * 0.004));
  const bands: Band[] = [];
  for (let y = 0; y < height; y++) {
    if (rows[y]! < minRow) continue;
    const last = bands[bands.length - 1];
    if (last && y - last.bottom <= 2) last.bottom = y + 1;
    else bands.push({ top: y, bottom: y + 1 });
  }
  for (let i = 0; i + 1 < bands.length;) {
    const a = bands[i]!;
    const b = bands[i + 1]!;
    if (b.bottom - a.top <= textHeight * 1.25 && b.top - a.bottom <= textHeight * 0.4) {
      a.bottom = b.bottom;
      bands.splice(i + 1, 1);
    } else i++;
  }
  const lines: TextLine[] = [];
  for (const band of bands.flatMap((b) => splitTall(b, rows, textHeight))) {
    if (band.bottom - band.top < textHeight * 0.3) continue;
    const columns = new Uint32Array(width);
    for (let y = band.top; y < band.bottom; y++)
      for (let x = 0; x < width; x++) if (data[y * width + x]! < threshold) columns[x]!++;
    const [left, right] = printSpan(columns, widestGap * textHeight);
    let mass = 0;
    for (let x = left; x <= right; x++) mass += columns[x]!;
    // Specks in a row (toner, noise) make a band too, but with a few pixels of ink, not a character's.
    if (mass < textHeight * 2) continue;
    lines.push({ x: left, y: band.top, width: right - left + 1, height: band.bottom - band.top, mass });
  }
  return lines;
}

/** A band taller than this many line heights holds more than one line. */
const TALLEST_LINE = 1.6;

/** The band cut at its thinnest rows into parts no taller than a line (each part at least most of a line tall). */
function splitTall(band: Band, rows: Uint32Array, textHeight: number): Band[] {
  if (band.bottom - band.top <= TALLEST_LINE * textHeight) return [band];
  const from = band.top + Math.round(0.7 * textHeight);
  const to = band.bottom - Math.round(0.7 * textHeight);
  let cut = from;
  for (let y = from; y < to; y++) if (rows[y]! < rows[cut]!) cut = y;
  return [
    ...splitTall({ top: band.top, bottom: cut }, rows, textHeight),
    ...splitTall({ top: cut + 1, bottom: band.bottom }, rows, textHeight),
  ];
}

/**
 * No gap inside a line of print is this many line heights wide: the date of birth's, where its
 * lighter 年 and 月 are not black ink, are about one and a half.
 */
const WIDEST_GAP = 2.5;

/** The first and last column of the line's print: the widest run of inked columns without a gap wider than `widestGap`. */
function printSpan(columns: Uint32Array, widestGap: number): [number, number] {
  const inked: number[] = [];
  columns.forEach((n, x) => {
    if (n > 0) inked.push(x);
  });
  if (inked.length === 0) return [columns.length, -1];
  // The print is the widest run of inked columns without a wide gap; the rest is beside it.
  let best: [number, number] = [inked[0]!, inked[0]!];
  let start = inked[0]!;
  for (let i = 1; i <= inked.length; i++) {
    const x = inked[i];
    const previous = inked[i - 1]!;
    if (x !== undefined && x - previous <= widestGap) continue;
    if (previous - start > best[1] - best[0]) best = [start, previous];
    if (x !== undefined) start = x;
  }
  return best;
}
