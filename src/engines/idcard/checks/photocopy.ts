/**
 * A photocopy or greyscale scan: a genuine card is printed in colour (the blue pre-print and
 * guilloche, the tint running from cool to warm, the holder's colour photo); a copy keeps none of
 * it. Colour is judged by chromaticity (each channel's share of the sum) of blocks of the card
 * against the card's own median: a copy photographed under warm or cold light takes one cast all
 * over, which moves the median and not the spread; averaging over blocks keeps sensor colour
 * noise out.
 */
import type { Canvas } from '../../canvas.js';
import { CARD_HEIGHT, CARD_WIDTH } from '../layout.js';
import { quantile } from './planes.js';
import { sampled } from './sampling.js';

/** Blocks of about 10×10 card pixels. */
const COLUMNS = 100;
const ROWS = 63;
/** A genuine card has at least a twentieth of its area (the photo alone is a fifth) this far from its median colour. */
const SHARE = 0.95;
const COLOURLESS = 0.011;

/** How far from the card's median colour the most colourful twentieth of it lies, in chromaticity. */
export function colourSpread(card: Canvas): number {
  const [red, green, blue] = sampled(
    card,
    { x: 0, y: 0, width: CARD_WIDTH, height: CARD_HEIGHT },
    COLUMNS,
    ROWS,
    ['red', 'green', 'blue'],
  );
  const r = new Float32Array(COLUMNS * ROWS);
  const g = new Float32Array(COLUMNS * ROWS);
  for (let i = 0; i < r.length; i++) {
    const sum = Math.max(1, red!.data[i]! + green!.data[i]! + blue!.data[i]!);
    r[i] = red!.data[i]! / sum;
    g[i] = green!.data[i]! / sum;
  }
  const mr = quantile(r, 0.5);
  const mg = quantile(g, 0.5);
  const spread = new Float32Array(r.length);
  for (let i = 0; i < r.length; i++) spread[i] = Math.hypot(r[i]! - mr, g[i]! - mg);
  return quantile(spread, SHARE);
}

export const isPhotocopy = (card: Canvas): boolean => colourSpread(card) < COLOURLESS;
