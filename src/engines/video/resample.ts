/**
 * Images to frame size: scaled to cover a width × height box and centred, as a video frame
 * shows a photo of another shape. Shrinking averages the source pixels each output pixel covers
 * (no aliasing from large uploads); enlarging reads bilinearly. Output is premultiplied words.
 */
import type { Canvas } from '../qr/background.js';

/** Source span [from, to) of each output index, for a crop starting at `offset`. */
function spans(count: number, scale: number, offset: number): Float64Array {
  const out = new Float64Array(count * 2);
  for (let i = 0; i < count; i += 1) {
    out[2 * i] = offset + i / scale;
    out[2 * i + 1] = offset + (i + 1) / scale;
  }
  return out;
}

/** Adds pixel (x, y), clamped to the image, with weight w: premultiplied sums and the weight. */
function accumulate(image: Canvas, x: number, y: number, w: number, acc: Float64Array): void {
  const cx = Math.min(image.width - 1, Math.max(0, x));
  const cy = Math.min(image.height - 1, Math.max(0, y));
  const o = (cy * image.width + cx) * 4;
  const src = image.data;
  const a = (src[o + 3]! / 255) * w;
  acc[0]! += src[o]! * a;
  acc[1]! += src[o + 1]! * a;
  acc[2]! += src[o + 2]! * a;
  acc[3]! += a * 255;
  acc[4]! += w;
}

/** `image` scaled by `scale` about its centre into a width × height box, premultiplied. */
export function resampleScaled(image: Canvas, width: number, height: number, scale: number): Int32Array {
  const out = new Int32Array(width * height);
  const xs = spans(width, scale, (image.width - width / scale) / 2);
  const ys = spans(height, scale, (image.height - height / scale) / 2);
  const acc = new Float64Array(5);
  for (let v = 0; v < height; v += 1) {
    const y0 = ys[2 * v]!;
    const y1 = ys[2 * v + 1]!;
    for (let u = 0; u < width; u += 1) {
      const x0 = xs[2 * u]!;
      const x1 = xs[2 * u + 1]!;
      acc.fill(0);
      if (scale < 1) {
        for (let y = Math.floor(y0); y < Math.ceil(y1); y += 1) {
          for (let x = Math.floor(x0); x < Math.ceil(x1); x += 1) accumulate(image, x, y, 1, acc);
        }
      } else {
        // Output pixel centre u + 0.5 sits at source x0 + 0.5 / scale; pixel centres are at +0.5.
        const sx = x0 + 0.5 / scale - 0.5;
        const sy = y0 + 0.5 / scale - 0.5;
        const fx = Math.floor(sx);
        const fy = Math.floor(sy);
        const tx = sx - fx;
        const ty = sy - fy;
        accumulate(image, fx, fy, (1 - tx) * (1 - ty), acc);
        accumulate(image, fx + 1, fy, tx * (1 - ty), acc);
        accumulate(image, fx, fy + 1, (1 - tx) * ty, acc);
        accumulate(image, fx + 1, fy + 1, tx * ty, acc);
      }
      const k = 1 / acc[4]!;
      out[v * width + u] =
        (Math.round(acc[3]! * k) << 24) |
        (Math.round(acc[2]! * k) << 16) |
        (Math.round(acc[1]! * k) << 8) |
        Math.round(acc[0]! * k);
    }
  }
  return out;
}

/** `image` scaled to cover width × height and centred: the first frame an image becomes. */
export function coverFrame(image: Canvas, width: number, height: number): Int32Array {
  return resampleScaled(image, width, height, Math.max(width / image.width, height / image.height));
}
