/**
 * A frame through the camera: each frame pixel is traced back to a point of the near layer and
 * of the far layer (translate, zoom, roll), read bilinearly, and the near layer laid over the far
 * one. Pixels are packed words and the arithmetic works on two colour lanes at once, which keeps
 * a 720p frame to a few milliseconds.
 */
import type { Layer } from './layer.js';
import type { Motion } from './types.js';

const LANES = 0x00ff00ff;

/** Layer pixel of frame pixel (0, 0) and its steps along a row and down a column. */
interface Affine {
  x0: number;
  y0: number;
  dxu: number;
  dyu: number;
  dxv: number;
  dyv: number;
}

function affineOf(layer: Layer, m: Motion, width: number, height: number): Affine {
  const d = layer.density;
  const cos = (Math.cos(m.roll) / m.zoom) * d;
  const sin = (Math.sin(m.roll) / m.zoom) * d;
  const cx = layer.ox + m.x * width * d;
  const cy = layer.oy + m.y * height * d;
  const hu = width / 2;
  const hv = height / 2;
  return {
    x0: cx - cos * hu + sin * hv,
    y0: cy - sin * hu - cos * hv,
    dxu: cos,
    dyu: sin,
    dxv: -sin,
    dyv: cos,
  };
}

/**
 * Four neighbouring pixels blended by weights fx, fy in 0..128. Seven bits keep every product
 * below 2^31 (a lane of 255 times 128), so all of it stays in fast small-integer arithmetic.
 */
export function blend4(p00: number, p01: number, p10: number, p11: number, fx: number, fy: number): number {
  const gx = 128 - fx;
  const gy = 128 - fy;
  const rbTop = (((p00 & LANES) * gx + (p01 & LANES) * fx) >>> 7) & LANES;
  const rbBottom = (((p10 & LANES) * gx + (p11 & LANES) * fx) >>> 7) & LANES;
  const gaTop = ((((p00 >>> 8) & LANES) * gx + ((p01 >>> 8) & LANES) * fx) >>> 7) & LANES;
  const gaBottom = ((((p10 >>> 8) & LANES) * gx + ((p11 >>> 8) & LANES) * fx) >>> 7) & LANES;
  const rb = ((rbTop * gy + rbBottom * fy) >>> 7) & LANES;
  const ga = ((gaTop * gy + gaBottom * fy) >>> 7) & LANES;
  return rb | (ga << 8);
}

/** Bilinear read at (x, y), which must lie at least one pixel inside the right and bottom edges. */
function texel(data: Int32Array, stride: number, x: number, y: number): number {
  const ix = x | 0;
  const iy = y | 0;
  const i = iy * stride + ix;
  return blend4(
    data[i]!,
    data[i + 1]!,
    data[i + stride]!,
    data[i + stride + 1]!,
    ((x - ix) * 128) | 0,
    ((y - iy) * 128) | 0,
  );
}

/** `top` (premultiplied) over `bottom`, opaque result. */
export function under(top: number, bottom: number): number {
  const k = ((255 - (top >>> 24)) * 129) >> 8;
  const rb = (((bottom & LANES) * k) >>> 7) & LANES;
  const g = ((((bottom >>> 8) & 0xff) * k) >>> 7) & 0xff;
  return (top + (rb | (g << 8))) | 0xff000000;
}

/**
 * The near layer over the far one, as the two motions see them, into `frame` (RGBA words).
 * Where the near layer is opaque the far one is not read, and where it is empty only the far
 * one is: most pixels of most scenes take one of those two short ways.
 */
export function composite(
  frame: Int32Array,
  width: number,
  height: number,
  near: Layer,
  nearMotion: Motion,
  far: Layer,
  farMotion: Motion,
): void {
  const n = affineOf(near, nearMotion, width, height);
  const f = affineOf(far, farMotion, width, height);
  const nd = near.data;
  const fd = far.data;
  const ns = near.width;
  const fs = far.width;
  let o = 0;
  for (let v = 0; v < height; v += 1) {
    let nx = n.x0 + n.dxv * v;
    let ny = n.y0 + n.dyv * v;
    let fx = f.x0 + f.dxv * v;
    let fy = f.y0 + f.dyv * v;
    for (let u = 0; u < width; u += 1) {
      const ix = nx | 0;
      const iy = ny | 0;
      const i = iy * ns + ix;
      const p00 = nd[i]!;
      const p01 = nd[i + 1]!;
      const p10 = nd[i + ns]!;
      const p11 = nd[i + ns + 1]!;
      if ((p00 & p01 & p10 & p11) >>> 24 === 255) {
        frame[o] =
          p00 === p01 && p00 === p10 && p00 === p11
            ? p00
            : blend4(p00, p01, p10, p11, ((nx - ix) * 128) | 0, ((ny - iy) * 128) | 0);
      } else {
        const jx = fx | 0;
        const jy = fy | 0;
        const j = jy * fs + jx;
        const back = blend4(
          fd[j]!,
          fd[j + 1]!,
          fd[j + fs]!,
          fd[j + fs + 1]!,
          ((fx - jx) * 128) | 0,
          ((fy - jy) * 128) | 0,
        );
        frame[o] =
          (p00 | p01 | p10 | p11) === 0
            ? back | 0xff000000
            : under(blend4(p00, p01, p10, p11, ((nx - ix) * 128) | 0, ((ny - iy) * 128) | 0), back);
      }
      o += 1;
      nx += n.dxu;
      ny += n.dyu;
      fx += f.dxu;
      fy += f.dyu;
    }
  }
}

/** Blends `layer` as `m` sees it over the frame with weight `amount` in [0, 1]; opaque layers. */
export function dissolve(
  frame: Int32Array,
  width: number,
  height: number,
  layer: Layer,
  m: Motion,
  amount: number,
): void {
  const a = affineOf(layer, m, width, height);
  const k = Math.round(amount * 128);
  const keep = 128 - k;
  const data = layer.data;
  const stride = layer.width;
  let o = 0;
  for (let v = 0; v < height; v += 1) {
    let x = a.x0 + a.dxv * v;
    let y = a.y0 + a.dyv * v;
    for (let u = 0; u < width; u += 1) {
      const s = texel(data, stride, x, y);
      const d = frame[o]!;
      const rb = (((d & LANES) * keep + (s & LANES) * k) >>> 7) & LANES;
      const g = ((((d >>> 8) & 0xff) * keep + ((s >>> 8) & 0xff) * k) >>> 7) & 0xff;
      frame[o] = rb | (g << 8) | 0xff000000;
      o += 1;
      x += a.dxu;
      y += a.dyu;
    }
  }
}
