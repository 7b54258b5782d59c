/**
 * One channel of a canvas region as a float plane, averaged down to a working size: each output
 * pixel is the mean of the source pixels its footprint covers, so that sensor noise and print
 * texture shrink rather than alias.
 */
import type { Canvas } from '../../canvas.js';
import type { Box } from '../layout.js';
import { planeOf, type Plane } from '../plane.js';

/** How a pixel's RGB becomes one number. */
export type Channel = 'red' | 'green' | 'blue' | 'luminance';

const WEIGHTS: Record<Channel, readonly [number, number, number]> = {
  red: [1, 0, 0],
  green: [0, 1, 0],
  blue: [0, 0, 1],
  luminance: [0.299, 0.587, 0.114],
};

/** Per output cell along one axis: the source cells it covers, each with the share of it covered. */
interface Footprints {
  start: Int32Array;
  count: Int32Array;
  cells: Int32Array;
  weights: Float32Array;
}

function footprintsOf(from: number, to: number, cells: number): Footprints {
  const step = (to - from) / cells;
  const span = Math.ceil(Math.max(step, 1)) + 1;
  const out: Footprints = {
    start: new Int32Array(cells),
    count: new Int32Array(cells),
    cells: new Int32Array(cells * span),
    weights: new Float32Array(cells * span),
  };
  for (let i = 0; i < cells; i++) {
    const lo = from + i * step;
    const hi = Math.min(to, lo + Math.max(step, 1));
    out.start[i] = i * span;
    let n = 0;
    for (let s = Math.floor(lo); s < hi && n < span; s++, n++) {
      out.cells[i * span + n] = s;
      out.weights[i * span + n] = Math.min(s + 1, hi) - Math.max(s, lo);
    }
    out.count[i] = n;
  }
  return out;
}

/**
 * `box` of `canvas` (clamped to it) resampled to width×height in each of `channels`, each output
 * pixel the mean of the source pixels its footprint covers (weighted by how much of each).
 */
export function sampled(
  canvas: Canvas,
  box: Box,
  width: number,
  height: number,
  channels: readonly Channel[],
): Plane[] {
  const x0 = Math.max(0, box.x);
  const y0 = Math.max(0, box.y);
  const weights = channels.map((c) => WEIGHTS[c]);
  const planes = channels.map(() => planeOf(width, height));
  const src = canvas.data;
  const stride = canvas.width;
  const whole = Number.isInteger(x0) && Number.isInteger(y0);
  if (
    whole &&
    x0 + width === Math.min(canvas.width, box.x + box.width) &&
    y0 + height === Math.min(canvas.height, box.y + box.height)
  ) {
    // Pixel for pixel: no footprints to weigh.
    for (let j = 0; j < height; j++)
      for (let i = 0, o = ((y0 + j) * stride + x0) * 4; i < width; i++, o += 4)
        for (let p = 0; p < planes.length; p++) {
          const [wr, wg, wb] = weights[p]!;
          planes[p]!.data[j * width + i] = wr * src[o]! + wg * src[o + 1]! + wb * src[o + 2]!;
        }
    return planes;
  }
  const columns = footprintsOf(x0, Math.min(canvas.width, box.x + box.width), width);
  const rows = footprintsOf(y0, Math.min(canvas.height, box.y + box.height), height);
  // Separably: each source row averaged across into the output's columns, then those rows down.
  const firstRow = rows.cells[0]!;
  const lastRow = rows.cells[rows.start[height - 1]! + rows.count[height - 1]! - 1]!;
  const across = [0, 1, 2].map(() => new Float32Array((lastRow - firstRow + 1) * width));
  const [red, green, blue] = across as [Float32Array, Float32Array, Float32Array];
  for (let y = firstRow; y <= lastRow; y++) {
    const rowBase = y * stride;
    const outBase = (y - firstRow) * width;
    for (let i = 0; i < width; i++) {
      const c0 = columns.start[i]!;
      const cn = columns.count[i]!;
      let r = 0;
      let g = 0;
      let b = 0;
      let total = 0;
      for (let k = 0; k < cn; k++) {
        const o = (rowBase + columns.cells[c0 + k]!) * 4;
        const w = columns.weights[c0 + k]!;
        r += w * src[o]!;
        g += w * src[o + 1]!;
        b += w * src[o + 2]!;
        total += w;
      }
      const scale = total > 0 ? 1 / total : 0;
      red[outBase + i] = r * scale;
      green[outBase + i] = g * scale;
      blue[outBase + i] = b * scale;
    }
  }
  for (let j = 0; j < height; j++) {
    const r0 = rows.start[j]!;
    const rn = rows.count[j]!;
    let total = 0;
    for (let k = 0; k < rn; k++) total += rows.weights[r0 + k]!;
    const scale = total > 0 ? 1 / total : 0;
    for (let i = 0; i < width; i++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < rn; k++) {
        const at = (rows.cells[r0 + k]! - firstRow) * width + i;
        const w = rows.weights[r0 + k]!;
        r += w * red[at]!;
        g += w * green[at]!;
        b += w * blue[at]!;
      }
      for (let p = 0; p < planes.length; p++) {
        const [wr, wg, wb] = weights[p]!;
        planes[p]!.data[j * width + i] = (wr * r + wg * g + wb * b) * scale;
      }
    }
  }
  return planes;
}

/** The three colour planes of `box` at width×height. */
export const colourPlanes = (canvas: Canvas, box: Box, width: number, height: number) =>
  sampled(canvas, box, width, height, ['red', 'green', 'blue']) as [Plane, Plane, Plane];
