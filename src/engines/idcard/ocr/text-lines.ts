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

/** Below this contrast between paper and ink the region is taken to be blank. */
const MIN_CONTRAST = 40;

/**
 * The lines of print in `raster`, top to bottom. `textHeight` is the expected height of a line
 * of characters: bands much thinner are specks or the edge of a neighbouring line, and bands
 * split by a gap inside a character (二, 三) are joined back when together they are one line tall.
 */
export function textLines(raster: GreyRaster, tones: Tones, textHeight: number): TextLine[] {
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
  const bands: { top: number; bottom: number }[] = [];
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
  for (const band of bands) {
    if (band.bottom - band.top < textHeight * 0.3) continue;
    let left = width;
    let right = 0;
    let mass = 0;
    for (let y = band.top; y < band.bottom; y++) {
      for (let x = 0; x < width; x++) {
        if (data[y * width + x]! >= threshold) continue;
        mass++;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
    // Specks in a row (toner, noise) make a band too, but with a few pixels of ink, not a character's.
    if (mass < textHeight * 2) continue;
    lines.push({ x: left, y: band.top, width: right - left + 1, height: band.bottom - band.top, mass });
  }
  return lines;
}
