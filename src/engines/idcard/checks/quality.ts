/**
 * Sharpness of a rectified card, 0–100: how steep the edges of its printed text are for their
 * contrast. A step of contrast C blurred by a Gaussian of σ pixels rises at most C/(σ√2π) per
 * pixel, so the gradient over the local contrast measures the edge's width whatever the light or
 * the ink: dim cards and pale print score like bright ones. Only the steepest edges of the text
 * areas count, on a lightly smoothed copy, so that sensor noise (steep but without contrast
 * behind it) does not read as sharpness.
 */
import type { Canvas } from '../../canvas.js';
import { LAYOUT, type Box } from '../layout.js';
import type { Plane } from '../plane.js';
import { boxBlur, levelQuantile, quantile } from './planes.js';
import { sampled } from './sampling.js';

/** Where the card is dense with printed text: the values and their labels. */
const TEXT_AREAS: readonly Box[] = Object.values(LAYOUT).flatMap((place) => [place.valueBox, place.labelBox]);

/**
 * Gradient over local contrast maps linearly onto the score: a perfect step would read 0.5, the
 * print as rendered about 0.34, a good photo of it 0.31, and a Gaussian blur of σ = 2 card pixels
 * about 0.195, which lands on 50.
 */
const SHARP = 0.39;
/** The share of a text area's pixels, steepest first, whose edges are measured. */
const STEEPEST = 0.04;
/** Half-size of the square the local contrast is taken over, px. */
const REACH = 5;
/** An edge has ink behind it: noise on plain stock is steep but has less contrast than this. */
const MIN_CONTRAST = 24;

/** Gradient over contrast for the steepest edges of one area. */
function edgeSteepness(card: Canvas, box: Box, ratios: number[]): void {
  const [raw] = sampled(card, box, box.width, box.height, ['luminance']) as [Plane];
  const { width, height, data } = boxBlur(raw, 1);
  const gradient = new Float32Array(width * height);
  for (let y = REACH; y < height - REACH; y++)
    for (let x = REACH; x < width - REACH; x++) {
      const i = y * width + x;
      const gx = data[i + 1]! - data[i - 1]!;
      const gy = data[i + width]! - data[i - width]!;
      gradient[i] = Math.sqrt(gx * gx + gy * gy) / 2;
    }
  const threshold = levelQuantile(
    gradient,
    1 - STEEPEST * ((width * height) / ((width - 2 * REACH) * (height - 2 * REACH))),
  );
  for (let cy = REACH; cy < height - REACH; cy++)
    for (let cx = REACH; cx < width - REACH; cx++) {
      const g = gradient[cy * width + cx]!;
      if (g < threshold || g === 0) continue;
      let low = Infinity;
      let high = -Infinity;
      for (let y = cy - REACH; y <= cy + REACH; y++)
        for (let x = cx - REACH, o = y * width + x; x <= cx + REACH; x++, o++) {
          const v = data[o]!;
          if (v < low) low = v;
          if (v > high) high = v;
        }
      if (high - low >= MIN_CONTRAST) ratios.push(g / (high - low));
    }
}

/** The median gradient-over-contrast of the steepest text edges. */
function steepness(card: Canvas): number {
  const ratios: number[] = [];
  for (const box of TEXT_AREAS) edgeSteepness(card, box, ratios);
  return ratios.length === 0 ? 0 : quantile(ratios, 0.5);
}

/** 0–100: ≥ 60 for a card as sharp as a good photo or scan, < 50 when its text is visibly blurred. */
export function qualityScore(card: Canvas): number {
  const steep = steepness(card);
  return Math.round(100 * Math.max(0, Math.min(1, steep / SHARP)));
}
