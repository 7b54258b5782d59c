/**
 * Luminance rasters for the reader: the card is found on a reduced grey copy of the photo (less
 * texture, fewer pixels) and its edges are measured on the full-size one.
 */
import type { Canvas } from '../../canvas.js';
import type { Plane } from '../plane.js';

/**
 * Luminance of `canvas`, each output pixel the mean of a factor×factor block. The last row and
 * column of blocks may be partial: they hold what lies in the image, so that a strip of the
 * surface narrower than a block along the frame is kept.
 */
export function greyOf(canvas: Canvas, factor = 1): Plane {
  const width = Math.max(1, Math.ceil(canvas.width / factor));
  const height = Math.max(1, Math.ceil(canvas.height / factor));
  const out = new Float32Array(width * height);
  const src = canvas.data;
  for (let y = 0; y < height; y++) {
    const rows = Math.min(factor, canvas.height - y * factor);
    for (let x = 0; x < width; x++) {
      const columns = Math.min(factor, canvas.width - x * factor);
      let sum = 0;
      for (let dy = 0; dy < rows; dy++) {
        let o = ((y * factor + dy) * canvas.width + x * factor) * 4;
        for (let dx = 0; dx < columns; dx++, o += 4)
          sum += 0.299 * src[o]! + 0.587 * src[o + 1]! + 0.114 * src[o + 2]!;
      }
      out[y * width + x] = sum / (rows * columns);
    }
  }
  return { width, height, data: out };
}

/**
 * `plane` with a border of `pad` pixels repeating its outermost ones. Repeating invents no edge,
 * but it puts one that lies on the frame (a card scanned with a margin of a pixel or two) far
 * enough inside for edges to be measured across it.
 */
export function padded(plane: Plane, pad: number): Plane {
  const width = plane.width + 2 * pad;
  const height = plane.height + 2 * pad;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(plane.height - 1, Math.max(0, y - pad));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(plane.width - 1, Math.max(0, x - pad));
      out[y * width + x] = plane.data[sy * plane.width + sx]!;
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
