/**
 * A frame through the camera: each frame pixel is traced back to a point of the near layer and
 * of the far layer (translate, zoom, roll), read bilinearly, and the near layer laid over the far
 * one. Pixels are packed words and the arithmetic works on two colour lanes at once, which keeps
 * a 720p frame to a few milliseconds. When the camera does not roll, rows of the frame run along
 * rows of the layers, and what a tile of the layers holds (nothing, only opaque pixels, one
 * colour) decides the short way for each run of pixels: a run of one colour is a fill.
 */
import type { Layer } from './layer.js';
import { tilesOf, TILE_SHIFT, EMPTY, OPAQUE, UNIFORM } from './tiles.js';
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
  if (n.dyu === 0 && f.dyu === 0 && n.dxv === 0 && f.dxv === 0) {
    compositeRows(frame, width, height, near, n, far, f);
    return;
  }
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

/** Per frame column: the layer column it reads, its weight, and where its tile's run ends. */
interface Columns {
  col: Int32Array;
  frac: Int32Array;
  /** The first frame column past the run of columns reading the same tile. */
  end: Int32Array;
}

const scratch = new Map<number, Columns[]>();

/** Column tables for the near and far layers, kept per frame width and filled anew each frame. */
function columnsOf(width: number): [Columns, Columns] {
  let pair = scratch.get(width);
  if (!pair) {
    const make = () => ({
      col: new Int32Array(width),
      frac: new Int32Array(width),
      end: new Int32Array(width),
    });
    pair = [make(), make()];
    scratch.set(width, pair);
  }
  return pair as [Columns, Columns];
}

function fillColumns(c: Columns, x0: number, dx: number, width: number): void {
  for (let u = 0; u < width; u += 1) {
    const x = x0 + dx * u;
    const ix = x | 0;
    c.col[u] = ix;
    c.frac[u] = ((x - ix) * 128) | 0;
  }
  let end = width;
  for (let u = width - 1; u >= 0; u -= 1) {
    if (u + 1 < width && c.col[u + 1]! >> TILE_SHIFT !== c.col[u]! >> TILE_SHIFT) end = u + 1;
    c.end[u] = end;
  }
}

/** Two pixels one above the other, blended by weight fy in 0..128. */
const vertical = (top: number, bottom: number, fy: number) =>
  top === bottom ? top : blend4(top, top, bottom, bottom, 0, fy);

/**
 * The composite of a camera that does not roll: a frame row reads two rows of each layer, and
 * runs of frame pixels that read one tile take its short way. Each pixel is reckoned as the
 * general loop above reckons it (which steps along a row by adding, and so may round apart).
 */
function compositeRows(
  frame: Int32Array,
  width: number,
  height: number,
  near: Layer,
  n: Affine,
  far: Layer,
  f: Affine,
): void {
  const [nc, fc] = columnsOf(width);
  fillColumns(nc, n.x0, n.dxu, width);
  fillColumns(fc, f.x0, f.dxu, width);
  const [ncol, nfrac, nend, fcol, ffrac, fend] = [nc.col, nc.frac, nc.end, fc.col, fc.frac, fc.end];
  const nd = near.data;
  const fd = far.data;
  const ns = near.width;
  const fs = far.width;
  const { flags: nflags, across: nacross } = tilesOf(near);
  const { flags: fflags, across: facross } = tilesOf(far);
  for (let v = 0; v < height; v += 1) {
    const ny = n.y0 + n.dyv * v;
    const fy = f.y0 + f.dyv * v;
    const iy = ny | 0;
    const jy = fy | 0;
    const nfy = ((ny - iy) * 128) | 0;
    const ffy = ((fy - jy) * 128) | 0;
    const ni = iy * ns;
    const fj = jy * fs;
    // What both rows read hold, tile by tile.
    const na = iy * nacross;
    const fa = jy * facross;
    const o = v * width;
    let u = 0;
    while (u < width) {
      const tile = ncol[u]! >> TILE_SHIFT;
      const end = nend[u]!;
      const flag = nflags[na + tile]! & nflags[na + nacross + tile]!;
      if (flag & OPAQUE) {
        if (flag & UNIFORM) {
          const i = ni + (tile << TILE_SHIFT);
          frame.fill(vertical(nd[i]!, nd[i + ns]!, nfy), o + u, o + end);
        } else
          for (; u < end; u += 1) {
            const i = ni + ncol[u]!;
            const p00 = nd[i]!;
            const p01 = nd[i + 1]!;
            const p10 = nd[i + ns]!;
            const p11 = nd[i + ns + 1]!;
            frame[o + u] =
              p00 === p01 && p00 === p10 && p00 === p11 ? p00 : blend4(p00, p01, p10, p11, nfrac[u]!, nfy);
          }
        u = end;
      } else if (flag & EMPTY) {
        while (u < end) {
          const farTile = fcol[u]! >> TILE_SHIFT;
          const stop = Math.min(end, fend[u]!);
          if (fflags[fa + farTile]! & fflags[fa + facross + farTile]! & UNIFORM) {
            const j = fj + (farTile << TILE_SHIFT);
            frame.fill(vertical(fd[j]!, fd[j + fs]!, ffy) | 0xff000000, o + u, o + stop);
            u = stop;
          } else
            for (; u < stop; u += 1) {
              const j = fj + fcol[u]!;
              frame[o + u] =
                blend4(fd[j]!, fd[j + 1]!, fd[j + fs]!, fd[j + fs + 1]!, ffrac[u]!, ffy) | 0xff000000;
            }
        }
      } else {
        for (; u < end; u += 1) {
          const i = ni + ncol[u]!;
          const p00 = nd[i]!;
          const p01 = nd[i + 1]!;
          const p10 = nd[i + ns]!;
          const p11 = nd[i + ns + 1]!;
          if ((p00 & p01 & p10 & p11) >>> 24 === 255) {
            frame[o + u] =
              p00 === p01 && p00 === p10 && p00 === p11 ? p00 : blend4(p00, p01, p10, p11, nfrac[u]!, nfy);
          } else {
            const j = fj + fcol[u]!;
            const back = blend4(fd[j]!, fd[j + 1]!, fd[j + fs]!, fd[j + fs + 1]!, ffrac[u]!, ffy);
            frame[o + u] =
              (p00 | p01 | p10 | p11) === 0
                ? back | 0xff000000
                : under(blend4(p00, p01, p10, p11, nfrac[u]!, nfy), back);
          }
        }
      }
    }
  }
}
