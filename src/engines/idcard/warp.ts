/**
 * Perspective geometry: the homography that maps one quadrilateral onto another, and a warp that
 * resamples a canvas through it. The reader uses it to rectify a photographed card to the
 * canonical raster; the card generator uses it to photograph a card at an angle.
 */
import { canvasOf, type Canvas } from '../canvas.js';

export interface Point {
  x: number;
  y: number;
}

/** Corners in order: top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

/** A 3×3 projective matrix, row by row, with h[8] = 1. */
export type Homography = Float64Array;

/** Solves the n×n system a·x = b (a row by row) by Gaussian elimination with partial pivoting. */
function solve(a: Float64Array, b: Float64Array): Float64Array {
  const n = b.length;
  const at = (row: number, col: number) => a[row * n + col]!;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(at(row, col)) > Math.abs(at(pivot, col))) pivot = row;
    if (Math.abs(at(pivot, col)) < 1e-12) throw new Error('degenerate quadrilateral');
    for (let k = 0; k < n; k++) {
      const t = at(col, k);
      a[col * n + k] = at(pivot, k);
      a[pivot * n + k] = t;
    }
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let row = col + 1; row < n; row++) {
      const f = at(row, col) / at(col, col);
      for (let k = col; k < n; k++) a[row * n + k] = at(row, k) - f * at(col, k);
      b[row] = b[row]! - f * b[col]!;
    }
  }
  const x = new Float64Array(n);
  for (let row = n - 1; row >= 0; row--) {
    let sum = b[row]!;
    for (let k = row + 1; k < n; k++) sum -= at(row, k) * x[k]!;
    x[row] = sum / at(row, row);
  }
  return x;
}

/** The homography taking each `from` corner to the matching `to` corner. */
export function homography(from: Quad, to: Quad): Homography {
  const a = new Float64Array(64);
  const b = new Float64Array(8);
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.set([x, y, 1, 0, 0, 0, -u * x, -u * y, 0, 0, 0, x, y, 1, -v * x, -v * y], i * 16);
    b[2 * i] = u;
    b[2 * i + 1] = v;
  }
  return Float64Array.from([...solve(a, b), 1]);
}

export function project(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
}

/** The rectangle of a width×height raster as a quad. */
export function rectangle(width: number, height: number): Quad {
  return [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: height },
    { x: 0, y: height },
  ];
}

/**
 * Resamples `source` so that its quadrilateral `quad` fills a width×height canvas, bilinearly.
 * Pixels that fall outside the source take `fill` (RGBA).
 */
export function warpQuad(
  source: Canvas,
  quad: Quad,
  width: number,
  height: number,
  fill: readonly [number, number, number, number] = [255, 255, 255, 255],
): Canvas {
  // Pixel centres: the output pixel (i + 0.5) maps to a source position, sampled at its centre.
  const toSource = homography(rectangle(width, height), quad);
  const out = canvasOf(width, height);
  const { data: src, width: sw, height: sh } = source;
  const dst = out.data;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const p = project(toSource, i + 0.5, j + 0.5);
      const fx = p.x - 0.5;
      const fy = p.y - 0.5;
      const o = (j * width + i) * 4;
      if (fx < -0.5 || fy < -0.5 || fx > sw - 0.5 || fy > sh - 0.5) {
        dst[o] = fill[0];
        dst[o + 1] = fill[1];
        dst[o + 2] = fill[2];
        dst[o + 3] = fill[3];
        continue;
      }
      const x0 = Math.max(0, Math.min(sw - 1, Math.floor(fx)));
      const y0 = Math.max(0, Math.min(sh - 1, Math.floor(fy)));
      const x1 = Math.min(sw - 1, x0 + 1);
      const y1 = Math.min(sh - 1, y0 + 1);
      const ax = Math.max(0, Math.min(1, fx - x0));
      const ay = Math.max(0, Math.min(1, fy - y0));
      const i00 = (y0 * sw + x0) * 4;
      const i10 = (y0 * sw + x1) * 4;
      const i01 = (y1 * sw + x0) * 4;
      const i11 = (y1 * sw + x1) * 4;
      for (let c = 0; c < 4; c++) {
        const top = src[i00 + c]! + (src[i10 + c]! - src[i00 + c]!) * ax;
        const bottom = src[i01 + c]! + (src[i11 + c]! - src[i01 + c]!) * ax;
        dst[o + c] = Math.round(top + (bottom - top) * ay);
      }
    }
  }
  return out;
}
