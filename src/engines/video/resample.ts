/**
 * Images to frame size: scaled to cover a width × height box and centred, as a video frame
 * shows a photo of another shape. Shrinking averages the source pixels each output pixel covers
 * (no aliasing from large uploads); enlarging reads bilinearly. Output is premultiplied words.
 */
import type { Canvas } from '../canvas.js';
import { blend4 } from './composite.js';

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

/** The image as premultiplied words, the form the bilinear blend reads. */
function premultiplied(image: Canvas): Int32Array {
  const out = new Int32Array(image.width * image.height);
  const src = image.data;
  for (let i = 0; i < out.length; i += 1) {
    const a = src[4 * i + 3]!;
    const k = a / 255;
    out[i] =
      (a << 24) |
      (Math.round(src[4 * i + 2]! * k) << 16) |
      (Math.round(src[4 * i + 1]! * k) << 8) |
      Math.round(src[4 * i]! * k);
  }
  return out;
}

/** For each output index: the source pixel before it and the 7-bit weight of the one after. */
function taps(spansOf: Float64Array, count: number, scale: number, size: number): [Int32Array, Int32Array] {
  const index = new Int32Array(count);
  const weight = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    // Output pixel centre i + 0.5 sits at source from + 0.5 / scale; source centres are at +0.5.
    const at = Math.min(size - 1, Math.max(0, spansOf[2 * i]! + 0.5 / scale - 0.5));
    index[i] = Math.min(size - 2, Math.floor(at));
    weight[i] = Math.round((at - index[i]!) * 128);
  }
  return [index, weight];
}

/** Enlarging: a bilinear read of the premultiplied words at each output pixel's centre. */
function enlarge(
  image: Canvas,
  width: number,
  height: number,
  scale: number,
  xs: Float64Array,
  ys: Float64Array,
): Int32Array {
  const words = premultiplied(image);
  const stride = image.width;
  const out = new Int32Array(width * height);
  const [column, fx] = taps(xs, width, scale, Math.max(2, image.width));
  const [row, fy] = taps(ys, height, scale, Math.max(2, image.height));
  // A one-pixel-wide or -high image has no second neighbour: read the first twice.
  const right = image.width > 1 ? 1 : 0;
  const down = image.height > 1 ? stride : 0;
  for (let v = 0; v < height; v += 1) {
    const base = row[v]! * stride;
    const wy = fy[v]!;
    for (let u = 0; u < width; u += 1) {
      const i = base + column[u]!;
      out[v * width + u] = blend4(
        words[i]!,
        words[i + right]!,
        words[i + down]!,
        words[i + down + right]!,
        fx[u]!,
        wy,
      );
    }
  }
  return out;
}

/** `image` scaled by `scale` about its centre into a width × height box, premultiplied. */
export function resampleScaled(image: Canvas, width: number, height: number, scale: number): Int32Array {
  const xs = spans(width, scale, (image.width - width / scale) / 2);
  const ys = spans(height, scale, (image.height - height / scale) / 2);
  if (scale >= 1) return enlarge(image, width, height, scale, xs, ys);
  const out = new Int32Array(width * height);
  const acc = new Float64Array(5);
  for (let v = 0; v < height; v += 1) {
    for (let u = 0; u < width; u += 1) {
      acc.fill(0);
      for (let y = Math.floor(ys[2 * v]!); y < Math.ceil(ys[2 * v + 1]!); y += 1) {
        for (let x = Math.floor(xs[2 * u]!); x < Math.ceil(xs[2 * u + 1]!); x += 1)
          accumulate(image, x, y, 1, acc);
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
