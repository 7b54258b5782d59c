/**
 * Luminance rasters for the reader: the card is found on a reduced grey copy of the photo (less
 * texture, fewer pixels) and its edges are measured on the full-size one.
 */
import type { Canvas } from '../../canvas.js';
import type { Plane } from '../plane.js';

/** Luminance of `canvas`, each output pixel the mean of a factor×factor block. */
export function greyOf(canvas: Canvas, factor = 1): Plane {
  const width = Math.max(1, Math.floor(canvas.width / factor));
  const height = Math.max(1, Math.floor(canvas.height / factor));
  const out = new Float32Array(width * height);
  const src = canvas.data;
  const scale = 1 / (factor * factor);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        let o = ((y * factor + dy) * canvas.width + x * factor) * 4;
        for (let dx = 0; dx < factor; dx++, o += 4)
          sum += 0.299 * src[o]! + 0.587 * src[o + 1]! + 0.114 * src[o + 2]!;
      }
      out[y * width + x] = sum * scale;
    }
  }
  return { width, height, data: out };
}

/** The canvas reduced by an integer factor, each pixel the mean of its block (all four channels). */
export function shrink(canvas: Canvas, factor: number): Canvas {
  const width = Math.floor(canvas.width / factor);
  const height = Math.floor(canvas.height / factor);
  const out = new Uint8Array(width * height * 4);
  const src = canvas.data;
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) {
          let o = ((y * factor + dy) * canvas.width + x * factor) * 4 + c;
          for (let dx = 0; dx < factor; dx++, o += 4) sum += src[o]!;
        }
        out[(y * width + x) * 4 + c] = Math.round(sum / area);
      }
    }
  }
  return { width, height, data: out };
}

/**
 * Bilinear interpolation of `value(px, py)` at (x, y) in pixel-edge coordinates, clamped at the
 * borders of a width×height raster.
 */
function bilinear(
  width: number,
  height: number,
  x: number,
  y: number,
  value: (px: number, py: number) => number,
): number {
  const fx = Math.max(0, Math.min(width - 1, x - 0.5));
  const fy = Math.max(0, Math.min(height - 1, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const top = value(x0, y0) * (1 - ax) + value(x1, y0) * ax;
  const bottom = value(x0, y1) * (1 - ax) + value(x1, y1) * ax;
  return top * (1 - ay) + bottom * ay;
}

/** Bilinear value of a grey image at (x, y) in pixel-edge coordinates, clamped at the borders. */
export function sampleGrey(image: Plane, x: number, y: number): number {
  const { width, height, data } = image;
  return bilinear(width, height, x, y, (px, py) => data[py * width + px]!);
}

/** Bilinear luminance of `canvas` at (x, y) in pixel-edge coordinates, clamped at the borders. */
export function luminanceAt(canvas: Canvas, x: number, y: number): number {
  const { width, height, data } = canvas;
  return bilinear(width, height, x, y, (px, py) => {
    const o = (py * width + px) * 4;
    return 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
  });
}
