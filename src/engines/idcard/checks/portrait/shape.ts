/**
 * The shape of a head as descriptors on a grid of cells in a window anchored at the crown: a
 * histogram of oriented gradients per cell (HOG, block-normalised, so that shading and contrast
 * drop out and the places of eyes, brows, nose, mouth, glasses and outline remain), how much of
 * each cell the head covers (the silhouette: hair style, face width, ears) and how much of it is
 * hair (the hairline). The window stops above the shoulders: clothes change between photos.
 */
import type { Head } from './head.js';

/** The window's corner relative to (centre, crown), in working pixels. */
const WINDOW_LEFT = -60;
const WINDOW_TOP = -4;
/** Cells of 8 working pixels, 15 across and 14 down: from ear to ear, from the crown to the neck. */
const CELL = 8;
const COLUMNS = 15;
const ROWS = 14;
/** Unsigned gradient orientations, 20° a bin. */
const BINS = 9;

export interface Shape {
  hog: Float32Array;
  silhouette: Float32Array;
  hair: Float32Array;
}

/** Gradient magnitude and unsigned orientation (in bins) of every pixel of the grey plane. */
export interface Gradients {
  magnitude: Float32Array;
  orientation: Float32Array;
}

export function gradientsOf(head: Head): Gradients {
  const { data, width, height } = head.grey;
  const magnitude = new Float32Array(data.length);
  const orientation = new Float32Array(data.length);
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = data[i + 1]! - data[i - 1]!;
      const gy = data[i + width]! - data[i - width]!;
      magnitude[i] = Math.sqrt(gx * gx + gy * gy);
      const angle = Math.atan2(gy, gx);
      orientation[i] = ((angle < 0 ? angle + Math.PI : angle) / Math.PI) * BINS;
    }
  return { magnitude, orientation };
}

/** L2-Hys over 2×2 blocks of cell histograms, the usual HOG normalisation. */
function normalisedBlocks(cells: Float32Array): Float32Array {
  const size = 4 * BINS;
  const out = new Float32Array((COLUMNS - 1) * (ROWS - 1) * size);
  let o = 0;
  for (let by = 0; by < ROWS - 1; by++)
    for (let bx = 0; bx < COLUMNS - 1; bx++) {
      for (let k = 0; k < 4; k++) {
        const from = ((by + (k >> 1)) * COLUMNS + bx + (k & 1)) * BINS;
        out.set(cells.subarray(from, from + BINS), o + k * BINS);
      }
      for (const clip of [0.2, 1]) {
        let norm = 0.01;
        for (let j = o; j < o + size; j++) norm += out[j]! * out[j]!;
        norm = 1 / Math.sqrt(norm);
        for (let j = o; j < o + size; j++) out[j] = Math.min(clip, out[j]! * norm);
      }
      o += size;
    }
  return out;
}

/** Where the window lies on a head: moved by (dx, dy) working pixels, turned by `angle` (radians) and scaled about the face's middle. */
export interface Pose {
  dx: number;
  dy: number;
  angle: number;
  scale: number;
}

export const UPRIGHT: Pose = { dx: 0, dy: 0, angle: 0, scale: 1 };

/** The window turns and scales about a point between the eyes, where a head's roll pivots. */
const PIVOT_BELOW_CROWN = 60;

/** The shape descriptors of `head` seen through the window in `pose`. */
export function shapeOf(head: Head, hairy: Uint8Array, gradients: Gradients, pose: Pose): Shape {
  const cos = Math.cos(pose.angle) * pose.scale;
  const sin = Math.sin(pose.angle) * pose.scale;
  const pivotX = head.centre + pose.dx;
  const pivotY = head.top + PIVOT_BELOW_CROWN + pose.dy;
  // A turned window sees gradients turned the other way; in bins.
  const turn = (pose.angle / Math.PI) * BINS;
  const { magnitude, orientation } = gradients;
  const { foreground } = head;
  const { width, height } = head.grey;
  const cells = new Float32Array(COLUMNS * ROWS * BINS);
  const silhouette = new Float32Array(COLUMNS * ROWS);
  const hair = new Float32Array(COLUMNS * ROWS);
  for (let wy = 0; wy < ROWS * CELL; wy++) {
    const cy = (wy / CELL) | 0;
    const ry = WINDOW_TOP + wy + 0.5 - PIVOT_BELOW_CROWN;
    for (let wx = 0; wx < COLUMNS * CELL; wx++) {
      const rx = WINDOW_LEFT + wx + 0.5;
      const x = Math.floor(pivotX + cos * rx - sin * ry);
      const y = Math.floor(pivotY + sin * rx + cos * ry);
      if (x < 0 || x >= width || y < 0 || y >= height) continue;
      const i = y * width + x;
      const cell = cy * COLUMNS + ((wx / CELL) | 0);
      // Orientation votes split between the two nearest bins.
      const position = orientation[i]! - turn - 0.5 + BINS;
      const low = Math.floor(position);
      const share = position - low;
      const m = magnitude[i]!;
      cells[cell * BINS + (low % BINS)]! += m * (1 - share);
      cells[cell * BINS + ((low + 1) % BINS)]! += m * share;
      silhouette[cell]! += foreground[i]!;
      hair[cell]! += hairy[i]!;
    }
  }
  for (let c = 0; c < silhouette.length; c++) {
    silhouette[c]! /= CELL * CELL;
    hair[c]! /= CELL * CELL;
  }
  return { hog: normalisedBlocks(cells), silhouette, hair };
}

/** Root-mean-square difference of two descriptors of one kind. */
export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum / a.length);
}
