/**
 * Painting on a layer: colours packed as premultiplied RGBA words, the 'over' rule, and the few
 * shapes the scene's forms are made of (spans, rectangles, discs, soft blobs, polygons and
 * strokes), all in world units.
 */
import type { Rgb } from '../paint/index.js';
import type { Layer } from './layer.js';

/** A colour with opacity in [0, 1], premultiplied. */
export function packed(rgb: Rgb, alpha = 1): number {
  const a = Math.round(Math.min(1, Math.max(0, alpha)) * 255);
  const k = a / 255;
  return (
    (a << 24) | (Math.round(rgb[2] * k) << 16) | (Math.round(rgb[1] * k) << 8) | Math.round(rgb[0] * k) | 0
  );
}

export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Brighter (f > 1) or darker (f < 1), kept in range. */
export function shade(rgb: Rgb, f: number): Rgb {
  return [Math.min(255, rgb[0] * f), Math.min(255, rgb[1] * f), Math.min(255, rgb[2] * f)];
}

/** `src` over the pixel at `i`, channel by channel, so opaque stays exactly opaque. */
export function over(data: Int32Array, i: number, src: number): void {
  const a = src >>> 24;
  if (a === 255) {
    data[i] = src;
    return;
  }
  const k = (255 - a) / 255;
  const d = data[i]!;
  let out = 0;
  for (let shift = 0; shift < 32; shift += 8) {
    out |= (((src >>> shift) & 0xff) + Math.round(((d >>> shift) & 0xff) * k)) << shift;
  }
  data[i] = out;
}

/** Layer pixel bounds of a world rectangle, clipped. */
function clip(
  layer: Layer,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): [number, number, number, number] {
  const d = layer.density;
  return [
    Math.max(0, Math.round(layer.ox + x0 * d)),
    Math.max(0, Math.round(layer.oy + y0 * d)),
    Math.min(layer.width, Math.round(layer.ox + x1 * d)),
    Math.min(layer.height, Math.round(layer.oy + y1 * d)),
  ];
}

export function fillRect(layer: Layer, x0: number, y0: number, x1: number, y1: number, color: number): void {
  const [a, b, c, e] = clip(layer, x0, y0, x1, y1);
  for (let y = b; y < e; y += 1) for (let x = a; x < c; x += 1) over(layer.data, y * layer.width + x, color);
}

/**
 * Fills, in every layer column, from `top(x)` down to `bottom(x)` (world units), with the colour
 * `paint(x, y)` gives; columns are evaluated once, which keeps ridgelines and crests cheap.
 */
export function fillColumns(
  layer: Layer,
  top: (x: number) => number,
  bottom: (x: number) => number,
  paint: (x: number, y: number) => number,
): void {
  const d = layer.density;
  for (let px = 0; px < layer.width; px += 1) {
    const x = (px - layer.ox) / d;
    const y0 = Math.max(0, Math.round(layer.oy + top(x) * d));
    const y1 = Math.min(layer.height, Math.round(layer.oy + bottom(x) * d));
    for (let py = y0; py < y1; py += 1)
      over(layer.data, py * layer.width + px, paint(x, (py - layer.oy) / d));
  }
}

/**
 * A disc of radius r (world units); `soft` is the share of the radius over which it fades out,
 * from a one-pixel antialiased rim (0) to a glow (1).
 */
export function disc(
  layer: Layer,
  cx: number,
  cy: number,
  r: number,
  rgb: Rgb,
  alpha: number,
  soft = 0,
): void {
  const d = layer.density;
  const pr = r * d;
  const pcx = layer.ox + cx * d;
  const pcy = layer.oy + cy * d;
  const x0 = Math.max(0, Math.floor(pcx - pr - 1));
  const x1 = Math.min(layer.width - 1, Math.ceil(pcx + pr + 1));
  const y0 = Math.max(0, Math.floor(pcy - pr - 1));
  const y1 = Math.min(layer.height - 1, Math.ceil(pcy + pr + 1));
  const fade = Math.max(1, soft * pr);
  const levels = Array.from({ length: 33 }, (_, k) => packed(rgb, (alpha * k) / 32));
  for (let y = y0; y <= y1; y += 1) {
    for (let x = x0; x <= x1; x += 1) {
      const dist = Math.hypot(x - pcx, y - pcy);
      const cover = Math.min(1, (pr - dist) / fade + (soft > 0 ? 0 : 0.5));
      if (cover <= 0) continue;
      over(layer.data, y * layer.width + x, levels[Math.round(cover * 32)]!);
    }
  }
}

export type Point = readonly [number, number];

/** Sub-rows sampled per pixel row: enough to smooth slanted edges at small sizes. */
const SUBROWS = 4;

/**
 * A filled polygon (world units, any winding, even-odd rule), its edges antialiased: each pixel
 * row is crossed at four heights, and each crossing's span covers whole pixels and parts of the
 * two at its ends.
 */
export function fillPolygon(layer: Layer, points: readonly Point[], rgb: Rgb, alpha = 1): void {
  const d = layer.density;
  const xs = points.map(([x]) => layer.ox + x * d);
  const ys = points.map(([, y]) => layer.oy + y * d);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const right = Math.min(layer.width, Math.ceil(Math.max(...xs)) + 1);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(layer.height, Math.ceil(Math.max(...ys)) + 1);
  if (left >= right || top >= bottom) return;
  const cover = new Float32Array(right - left + 1);
  const levels = Array.from({ length: 33 }, (_, k) => packed(rgb, (alpha * k) / 32));
  const crossings: number[] = [];
  for (let py = top; py < bottom; py += 1) {
    cover.fill(0);
    for (let sub = 0; sub < SUBROWS; sub += 1) {
      const y = py + (sub + 0.5) / SUBROWS;
      crossings.length = 0;
      for (let i = 0, j = xs.length - 1; i < xs.length; j = i, i += 1) {
        const [y0, y1] = [ys[j]!, ys[i]!];
        if (y0 <= y === y1 <= y) continue;
        crossings.push(xs[j]! + ((y - y0) / (y1 - y0)) * (xs[i]! - xs[j]!));
      }
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const a = Math.max(left, crossings[k]!);
        const b = Math.min(right, crossings[k + 1]!);
        for (let px = Math.floor(a); px < b; px += 1) {
          cover[px - left]! += (Math.min(b, px + 1) - Math.max(a, px)) / SUBROWS;
        }
      }
    }
    for (let px = left; px < right; px += 1) {
      const c = cover[px - left]!;
      if (c > 0.01) over(layer.data, py * layer.width + px, levels[Math.round(Math.min(1, c) * 32)]!);
    }
  }
}

/** A straight stroke of the given width from one point to another, as a polygon. */
export function stroke(layer: Layer, from: Point, to: Point, width: number, rgb: Rgb): void {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  const length = Math.hypot(dx, dy) || 1;
  const [nx, ny] = [(-dy / length) * (width / 2), (dx / length) * (width / 2)];
  fillPolygon(
    layer,
    [
      [from[0] + nx, from[1] + ny],
      [to[0] + nx, to[1] + ny],
      [to[0] - nx, to[1] - ny],
      [from[0] - nx, from[1] - ny],
    ],
    rgb,
  );
}
