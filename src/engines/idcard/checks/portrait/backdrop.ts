/**
 * The plain background of an ID photo as a model: per channel a plane over the photo (a level
 * and a slope each way), fitted to the top band and the side strips that no head or shoulders
 * reach. The slopes take up a studio backdrop's gradient and, once the photo is printed on a
 * card, the card stock's tint running from cool to warm under it; a second fit without the
 * samples the first one could not explain leaves out stray print lines crossing the strips.
 */
import type { Plane } from '../../plane.js';
import { quantile } from '../planes.js';

/** Per channel: value = level + slopeX·x + slopeY·y. */
export type Tilted = [number, number, number];

export interface Backdrop {
  channels: [Tilted, Tilted, Tilted];
  /** How far background pixels typically stray from the model (95th percentile), in plane units. */
  spread: number;
}

export const backdropAt = (model: Tilted, x: number, y: number) => model[0] + model[1] * x + model[2] * y;

/** Least squares for value = a + b·x + c·y over the samples whose `keep` is set. */
function fitPlane(xs: Int32Array, ys: Int32Array, values: Float32Array, keep: Uint8Array): Tilted {
  // Normal equations, solved by Cramer's rule (the 3×3 system is well conditioned: x and y span the photo).
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0,
    syy = 0,
    sv = 0,
    sxv = 0,
    syv = 0;
  for (let i = 0; i < values.length; i++) {
    if (!keep[i]) continue;
    const x = xs[i]!;
    const y = ys[i]!;
    const v = values[i]!;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sv += v;
    sxv += x * v;
    syv += y * v;
  }
  const det = (
    a: number,
    b: number,
    c: number,
    d: number,
    e: number,
    f: number,
    g: number,
    h: number,
    k: number,
  ) => a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
  const d = det(n, sx, sy, sx, sxx, sxy, sy, sxy, syy);
  if (Math.abs(d) < 1e-9) return [n > 0 ? sv / n : 0, 0, 0];
  return [
    det(sv, sx, sy, sxv, sxx, sxy, syv, sxy, syy) / d,
    det(n, sv, sy, sx, sxv, sxy, sy, syv, syy) / d,
    det(n, sx, sv, sx, sxx, sxv, sy, sxy, syv) / d,
  ];
}

/** Fits the backdrop of width×height colour planes on the pixels `isSample` picks. */
export function backdropOf(planes: readonly Plane[], isSample: (x: number, y: number) => boolean): Backdrop {
  const { width, height } = planes[0]!;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (isSample(x, y)) {
        xs.push(x);
        ys.push(y);
      }
  const px = Int32Array.from(xs);
  const py = Int32Array.from(ys);
  const residuals: number[] = [];
  const channels = planes.map((plane) => {
    const values = Float32Array.from(xs, (x, i) => plane.data[py[i]! * width + x]!);
    const keep = new Uint8Array(values.length).fill(1);
    const first = fitPlane(px, py, values, keep);
    const misfit = Float32Array.from(values, (v, i) => Math.abs(v - backdropAt(first, px[i]!, py[i]!)));
    const limit = Math.max(1, 3 * quantile(misfit, 0.5));
    for (let i = 0; i < values.length; i++) keep[i] = misfit[i]! <= limit ? 1 : 0;
    const model = fitPlane(px, py, values, keep);
    for (let i = 0; i < values.length; i++)
      residuals.push(Math.abs(values[i]! - backdropAt(model, px[i]!, py[i]!)));
    return model;
  }) as Backdrop['channels'];
  return { channels, spread: quantile(residuals, 0.95) };
}
