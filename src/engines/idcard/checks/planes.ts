/**
 * The few filters and statistics over planes (one channel of a region as numbers, see
 * sampling.ts) that the image checks share.
 */
import { planeOf, type Plane } from '../plane.js';

/** One pass of a running mean over `length` samples `step` apart, starting at `base`; ends clamp. */
function runningMean(
  src: Float32Array,
  dst: Float32Array,
  base: number,
  length: number,
  step: number,
  radius: number,
): void {
  const span = 2 * radius + 1;
  const last = base + (length - 1) * step;
  let sum = 0;
  for (let k = -radius; k <= radius; k++) sum += src[base + Math.max(0, Math.min(length - 1, k)) * step]!;
  for (let k = 0, at = base; k < length; k++, at += step) {
    dst[at] = sum / span;
    const entering = k + radius + 1 < length ? at + (radius + 1) * step : last;
    const leaving = k - radius >= 0 ? at - radius * step : base;
    sum += src[entering]! - src[leaving]!;
  }
}

/** A mean over a (2r+1)² square, by running sums along rows then columns; borders clamp. */
export function boxBlur(plane: Plane, radius: number): Plane {
  const { width, height } = plane;
  const across = new Float32Array(width * height);
  for (let y = 0; y < height; y++) runningMean(plane.data, across, y * width, width, 1, radius);
  const out = planeOf(width, height);
  for (let x = 0; x < width; x++) runningMean(across, out.data, x, height, width, radius);
  return out;
}

/** The value below which `fraction` of `values` lie (values are copied, not reordered). */
export function quantile(values: ArrayLike<number>, fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(fraction * sorted.length)))]!;
}

/** Histogram resolution of levelQuantile: quarter grey levels. */
const LEVEL_BINS = 1024;

/**
 * The value below which `fraction` of `values` lie, for values on the 0–255 scale, to a quarter
 * level: a histogram pass instead of a sort, for the large pixel sets the checks measure.
 */
export function levelQuantile(values: ArrayLike<number>, fraction: number): number {
  const counts = new Uint32Array(LEVEL_BINS);
  const scale = LEVEL_BINS / 256;
  for (let i = 0; i < values.length; i++)
    counts[Math.max(0, Math.min(LEVEL_BINS - 1, Math.floor(values[i]! * scale)))]!++;
  const target = fraction * values.length;
  let seen = 0;
  for (let bin = 0; bin < LEVEL_BINS; bin++) {
    seen += counts[bin]!;
    if (seen > target) return (bin + 0.5) / scale;
  }
  return 255;
}
