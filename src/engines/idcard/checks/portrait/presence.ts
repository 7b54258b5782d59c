/**
 * Whether what findHead found is a head and shoulders at all. Card stock, text or a blank patch
 * can clear the background threshold here and there; an ID photo is solid: a head filled from
 * one side of its outline to the other, as wide as a head, over shoulders that fill the bottom
 * of the photo.
 */
import type { Head } from './head.js';

/** Rows below the crown where the head is measured (forehead to mouth, working pixels). */
const HEAD_ROWS: [number, number] = [12, 70];
/** Of each row's span from the outline's left to its right, at least this share is head… */
const SOLID = 0.6;
/** …the widest row is between these shares of the photo's width… */
const HEAD_WIDTH: [number, number] = [0.3, 0.9];
/** …and shoulders fill at least this share of the photo's bottom tenth. */
const SHOULDERS = 0.5;

export function looksLikeHead(head: Head): boolean {
  const { foreground, top } = head;
  const { width, height } = head.grey;
  let filled = 0;
  let spanned = 0;
  let widest = 0;
  for (let y = top + HEAD_ROWS[0]; y < Math.min(height, top + HEAD_ROWS[1]); y++) {
    let first = -1;
    let last = -1;
    let count = 0;
    for (let x = 0; x < width; x++)
      if (foreground[y * width + x]) {
        if (first < 0) first = x;
        last = x;
        count++;
      }
    if (first < 0) return false;
    filled += count;
    spanned += last - first + 1;
    widest = Math.max(widest, last - first + 1);
  }
  let shoulders = 0;
  const band = Math.round(0.1 * height);
  for (let i = (height - band) * width; i < height * width; i++) shoulders += foreground[i]!;
  return (
    filled / spanned > SOLID &&
    widest > HEAD_WIDTH[0] * width &&
    widest < HEAD_WIDTH[1] * width &&
    shoulders > SHOULDERS * band * width
  );
}
