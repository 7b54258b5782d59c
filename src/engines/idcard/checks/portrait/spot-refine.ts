/**
 * A glare spot fitted together with the backdrop's plane. The spot is first fitted beside a plane
 * fitted under the glare, which takes part of the spot into its level and slopes (a spot in a top
 * corner tilts it): the spot comes out too small, and the backdrop far from it reads darker than
 * the plane, as foreground. Here the spot moves (middle, size, strength) to where the photo with
 * it taken off is best explained by a plane: the backdrop's own gradient is a plane, a glare's
 * bump is not.
 */
import type { Plane } from '../../plane.js';
import { WHITE, type Spot } from './glare.js';

/** A sample further than this many levels from the model counts this far only (a stray line, a crown in a strip). */
const OUTLIER = 12;
/** The descent's first steps (pixels, a share of the radius, strength), halved until these… */
const FIRST_STEPS = { x: 8, y: 8, radius: 0.2, strength: 0.08 };
/** …are this small in shares of the first. */
const FINEST = 1 / 8;
/** The strongest a spot may be fitted (as glare.ts). */
const STRONGEST = 0.8;

/** The backdrop samples: their places, and each channel's value there. */
interface Samples {
  xs: Float64Array;
  ys: Float64Array;
  values: Float64Array[];
}

/** Solves the 3×3 system m·p = v (Cramer's rule; the samples span the photo, so it is well conditioned). */
function solve3(m: number[], v: number[]): [number, number, number] {
  const det = (a: number[]) =>
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const d = det(m);
  if (Math.abs(d) < 1e-9) return [0, 0, 0];
  const column = (k: number) => m.map((value, i) => (i % 3 === k ? v[Math.floor(i / 3)]! : value));
  return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}

/**
 * How far the samples stray from a plane once `spot` is taken off: per channel the plane is
 * fitted to the samples brought back from the spot, and each is measured where it was seen
 * (its distance times 1 − g), robustly.
 */
function misfit({ xs, ys, values }: Samples, spot: Spot, g: Float64Array, u: Float64Array): number {
  const n = xs.length;
  const spread = 2 * spot.radius * spot.radius;
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0,
    syy = 0;
  for (let j = 0; j < n; j++) {
    g[j] = spot.strength * Math.exp(-((xs[j]! - spot.x) ** 2 + (ys[j]! - spot.y) ** 2) / spread);
    sx += xs[j]!;
    sy += ys[j]!;
    sxx += xs[j]! * xs[j]!;
    sxy += xs[j]! * ys[j]!;
    syy += ys[j]! * ys[j]!;
  }
  const normal = [n, sx, sy, sx, sxx, sxy, sy, sxy, syy];
  let sum = 0;
  for (const channel of values) {
    let sv = 0,
      sxv = 0,
      syv = 0;
    for (let j = 0; j < n; j++) {
      const value = (channel[j]! - WHITE * g[j]!) / (1 - g[j]!);
      u[j] = value;
      sv += value;
      sxv += xs[j]! * value;
      syv += ys[j]! * value;
    }
    const [a, b, c] = solve3(normal, [sv, sxv, syv]);
    for (let j = 0; j < n; j++) {
      const off = (u[j]! - (a + b * xs[j]! + c * ys[j]!)) * (1 - g[j]!);
      sum += Math.min(off * off, OUTLIER * OUTLIER);
    }
  }
  return sum;
}

/** `spot` moved by a descent to where the backdrop samples (pixel indices) without it fit a plane best. */
export function refinedSpot(planes: readonly Plane[], samples: Int32Array, spot: Spot): Spot {
  const { width } = planes[0]!;
  const backdrop: Samples = {
    xs: Float64Array.from(samples, (i) => i % width),
    ys: Float64Array.from(samples, (i) => Math.floor(i / width)),
    values: planes.map((plane) => Float64Array.from(samples, (i) => plane.data[i]!)),
  };
  const g = new Float64Array(samples.length);
  const u = new Float64Array(samples.length);
  let best = spot;
  let bestMisfit = misfit(backdrop, spot, g, u);
  const steps = { ...FIRST_STEPS };
  const keys = Object.keys(steps) as (keyof Spot)[];
  while (steps.x >= FIRST_STEPS.x * FINEST) {
    let moved = false;
    for (const key of keys)
      for (const sign of [-1, 1]) {
        const value =
          key === 'radius' ? best.radius * (1 + sign * steps.radius) : best[key] + sign * steps[key];
        if (key === 'strength' && (value <= 0 || value > STRONGEST)) continue;
        const candidate = { ...best, [key]: value };
        const m = misfit(backdrop, candidate, g, u);
        if (m < bestMisfit) {
          best = candidate;
          bestMisfit = m;
          moved = true;
        }
      }
    if (!moved) for (const key of keys) steps[key] /= 2;
  }
  return best;
}
