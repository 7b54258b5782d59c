/**
 * Edge pixels of a grey image, sorted by the way they face: a card edge is a long run of pixels
 * that all face the same way (brighter on the card side), which tells it from wood grain or
 * cloth, whose edges alternate.
 */
import type { Plane } from '../plane.js';

/** Bits of an edge class: a horizontal edge brighter below / above, a vertical one brighter right / left. */
export const BRIGHTER_BELOW = 1;
export const BRIGHTER_ABOVE = 2;
export const BRIGHTER_RIGHT = 4;
export const BRIGHTER_LEFT = 8;

export interface EdgeMap {
  width: number;
  height: number;
  /** Per pixel, the BRIGHTER_* bits of the edge there (0 where none). */
  classes: Uint8Array;
  gx: Float32Array;
  gy: Float32Array;
}

/**
 * Sobel gradients, kept where the gradient is strong against this image's own contrast. A pixel
 * may carry a horizontal and a vertical bit when its gradient is diagonal (up to 45°), so a
 * tilted card still votes for its edges.
 */
export function edgeMap(grey: Plane): EdgeMap {
  const { width, height, data } = grey;
  const gx = new Float32Array(width * height);
  const gy = new Float32Array(width * height);
  const magnitudes: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const a = data[i - width - 1]!;
      const b = data[i - width]!;
      const c = data[i - width + 1]!;
      const d = data[i - 1]!;
      const f = data[i + 1]!;
      const g = data[i + width - 1]!;
      const h = data[i + width]!;
      const k = data[i + width + 1]!;
      // Divided by 4: a clean step of Δ grey levels gives about Δ.
      gx[i] = (c + 2 * f + k - a - 2 * d - g) / 4;
      gy[i] = (g + 2 * h + k - a - 2 * b - c) / 4;
      if ((x & 3) === 0 && (y & 3) === 0) magnitudes.push(Math.hypot(gx[i]!, gy[i]!));
    }
  }
  magnitudes.sort((p, q) => p - q);
  // Strong for this image: above most of its gradients, and never below a visible step.
  const threshold = Math.max(6, magnitudes[Math.floor(magnitudes.length * 0.8)] ?? 0);
  const classes = new Uint8Array(width * height);
  for (let i = 0; i < classes.length; i++) {
    const ax = Math.abs(gx[i]!);
    const ay = Math.abs(gy[i]!);
    if (Math.hypot(ax, ay) < threshold) continue;
    let bits = 0;
    if (ax <= ay * 1.05) bits |= gy[i]! > 0 ? BRIGHTER_BELOW : BRIGHTER_ABOVE;
    if (ay <= ax * 1.05) bits |= gx[i]! > 0 ? BRIGHTER_RIGHT : BRIGHTER_LEFT;
    classes[i] = bits;
  }
  return { width, height, classes, gx, gy };
}
