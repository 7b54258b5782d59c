/**
 * The date of birth line cut into its numbers: "1990 年 1 月 8 日" prints 年, 月 and 日 in the
 * lighter label ink, so the dark print falls into three groups of digits (year, month, day) with
 * gaps between them. The groups are set side by side with even gaps, without the label
 * characters, and read as digits: the Chinese model misreads a lone 1 (as 工), and the digit model
 * alone drops it, but reads it within a line of digits.
 */
import type { Tones } from './raster.js';
import type { GreyRaster } from './tesseract.js';

export interface DigitLine {
  image: GreyRaster;
  /** Left and right edge of each group in `image`, for sorting the characters read back into groups. */
  spans: readonly (readonly [number, number])[];
}

/**
 * The three groups of value-dark print in a line crop set on one line, or undefined when the line
 * does not fall into three (then the whole line is read instead). A column is print when its
 * darkest pixel is near the ink level: label ink, even grey on a photocopy, is lighter. The
 * groups are where the two widest gaps are, when those are clearly wider than the spacing of the
 * digits.
 */
export function digitLine(raster: GreyRaster, tones: Tones, textHeight: number): DigitLine | undefined {
  const { width, height, data } = raster;
  const threshold = tones.ink + 0.4 * (tones.paper - tones.ink);
  const found: { left: number; right: number; mass: number }[] = [];
  for (let x = 0; x < width; x++) {
    let mass = 0;
    for (let y = 0; y < height; y++) if (data[y * width + x]! < threshold) mass++;
    if (mass === 0) continue;
    const last = found[found.length - 1];
    if (last && x - last.right <= 2) {
      last.right = x;
      last.mass += mass;
    } else found.push({ left: x, right: x, mass });
  }
  // Specks (toner, noise, the ringing JPEG leaves around the labels) have far less ink than a digit.
  const runs = found.filter((r) => r.mass >= textHeight * 1.5);
  if (runs.length < 3) return undefined;
  const gaps = runs.slice(1).map((r, i) => ({ at: i + 1, width: r.left - runs[i]!.right }));
  const widest = [...gaps].sort((a, b) => b.width - a.width);
  const [first, second, third] = widest;
  if (second!.width < textHeight * 0.5 || (third && second!.width < 1.8 * third.width)) return undefined;
  const cuts = [first!.at, second!.at].sort((a, b) => a - b);
  const groups = [runs.slice(0, cuts[0]), runs.slice(cuts[0], cuts[1]), runs.slice(cuts[1])].map((part) => ({
    left: part[0]!.left,
    right: part[part.length - 1]!.right,
  }));
  const gap = Math.round(textHeight * 0.8);
  const lineWidth = groups.reduce((sum, r) => sum + r.right - r.left + 1, 0) + gap * 4;
  const out = new Uint8Array(lineWidth * height).fill(255);
  const spans: [number, number][] = [];
  let at = gap;
  for (const { left, right } of groups) {
    for (let y = 0; y < height; y++)
      out.set(data.subarray(y * width + left, y * width + right + 1), y * lineWidth + at);
    spans.push([at, at + right - left + 1]);
    at += right - left + 1 + gap;
  }
  return { image: { width: lineWidth, height, data: out }, spans };
}
