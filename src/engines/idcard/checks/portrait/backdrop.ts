/**
 * The plain background of an ID photo as a model: per channel a plane over the photo (a level
 * and a slope each way), fitted to the top band and the side strips that no head or shoulders
 * reach. The slopes take up a studio backdrop's gradient and, once the photo is printed on a
 * card, the card stock's tint running from cool to warm under it. The fit starts from the
 * samples' median level, not from a plane through all of them: where a photo is cut tight, a
 * crown or a shoulder fills part of the strips and would tilt a first plane; each of two refits
 * keeps only the samples the model before it explains, which also leaves out stray print lines.
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

/** Plane fits, each on the samples the model before it explains. */
const REFITS = 2;

/**
 * A sample this many times further from the model than the typical one is something standing in
 * the strips (a crown or a shoulder reaching into a tightly cut photo's margin), not the
 * backdrop's own texture: it is left out of the spread.
 */
const OBJECT = 10;

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
    const keep = new Uint8Array(values.length);
    let model: Tilted = [quantile(values, 0.5), 0, 0];
    for (let round = 0; round < REFITS; round++) {
      const misfit = Float32Array.from(values, (v, i) => Math.abs(v - backdropAt(model, px[i]!, py[i]!)));
      const limit = Math.max(1, 3 * quantile(misfit, 0.5));
      for (let i = 0; i < values.length; i++) keep[i] = misfit[i]! <= limit ? 1 : 0;
      model = fitPlane(px, py, values, keep);
    }
    const own = Float32Array.from(values, (v, i) => Math.abs(v - backdropAt(model, px[i]!, py[i]!)));
    const typical = Math.max(1, quantile(own, 0.5));
    for (const residual of own) if (residual <= OBJECT * typical) residuals.push(residual);
    return model;
  }) as Backdrop['channels'];
  return { channels, spread: quantile(residuals, 0.95) };
}
