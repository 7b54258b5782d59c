/**
 * Procedural backgrounds: a field t in [0, 1] per pixel, from the pattern, mapped through the
 * palette's colours. `detail` (from `steps`) is how many octaves of noise refine the field.
 */
import type { Palette, Rgb } from './palette.js';
import type { Random } from '../random.js';
import type { Canvas } from '../canvas.js';

/** Value noise on a lattice of random values, smoothly interpolated. */
function noiseField(random: Random, cells: number): (x: number, y: number) => number {
  const n = cells + 1;
  const lattice = Float32Array.from({ length: n * n }, () => random());
  const smooth = (t: number) => t * t * (3 - 2 * t);
  return (x, y) => {
    const gx = x * cells;
    const gy = y * cells;
    const x0 = Math.min(cells - 1, Math.floor(gx));
    const y0 = Math.min(cells - 1, Math.floor(gy));
    const fx = smooth(gx - x0);
    const fy = smooth(gy - y0);
    const at = (cx: number, cy: number) => lattice[cy * n + cx] ?? 0;
    const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
    const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
    return top + (bottom - top) * fy;
  };
}

function fieldOf(palette: Palette, random: Random, detail: number): (x: number, y: number) => number {
  const octaves = Array.from({ length: detail }, (_, i) => noiseField(random, 3 * 2 ** i));
  const fbm = (x: number, y: number) => {
    let sum = 0;
    let weight = 0.5;
    for (const octave of octaves) {
      sum += weight * octave(x, y);
      weight /= 2;
    }
    return sum / (1 - 0.5 ** detail);
  };
  const angle = random() * Math.PI;
  const [ax, ay] = [Math.cos(angle), Math.sin(angle)];
  const frequency = 4 + random() * 8;
  const [cx, cy] = [random(), random()];
  const seeds = Array.from({ length: 9 }, () => [random(), random()] as const);
  switch (palette.pattern) {
    case 'gradient':
      return (x, y) => 0.8 * ((x * ax + y * ay + 1) / 2) + 0.2 * fbm(x, y);
    case 'stripes':
      return (x, y) => 0.5 + 0.4 * Math.sin((x * ax + y * ay) * frequency * Math.PI * 2 + fbm(x, y) * 2);
    case 'rings':
      return (x, y) => 0.5 + 0.4 * Math.sin(Math.hypot(x - cx, y - cy) * frequency * Math.PI * 2 + fbm(x, y));
    case 'waves':
      return (x, y) =>
        0.5 +
        0.25 * Math.sin((x * frequency + fbm(x, y) * 3) * Math.PI) +
        0.25 * Math.sin((y * frequency * 0.7 + fbm(y, x) * 3) * Math.PI);
    case 'cells':
      return (x, y) => {
        let best = Infinity;
        let second = Infinity;
        for (const [sx, sy] of seeds) {
          const d = Math.hypot(x - sx, y - sy);
          if (d < best) [best, second] = [d, best];
          else if (d < second) second = d;
        }
        return Math.min(1, (second - best) * 4) * 0.8 + 0.2 * fbm(x, y);
      };
    case 'plain':
      return (x, y) => 0.15 * fbm(x, y);
    case 'noise':
      return fbm;
  }
}

/** The palette's colours blended along t in 256 steps, RGB. */
function colorTable(stops: readonly Rgb[]): Uint8Array {
  const table = new Uint8Array(256 * 3);
  const last = stops.length - 1;
  for (let i = 0; i < 256; i += 1) {
    const position = (i / 255) * last;
    const k = Math.max(0, Math.min(last - 1, Math.floor(position)));
    const a = stops[k] ?? [0, 0, 0];
    const b = stops[Math.min(last, k + 1)] ?? a;
    const t = last === 0 ? 0 : position - k;
    for (let j = 0; j < 3; j += 1) table[i * 3 + j] = (a[j] ?? 0) + ((b[j] ?? 0) - (a[j] ?? 0)) * t;
  }
  return table;
}

/** Paints the whole canvas. The field is computed every 4 pixels and interpolated. */
export function paintBackground(canvas: Canvas, palette: Palette, random: Random, detail: number): void {
  const field = fieldOf(palette, random, Math.max(1, detail));
  const { width, height, data } = canvas;
  const step = 4;
  const gw = Math.ceil(width / step) + 1;
  const gh = Math.ceil(height / step) + 1;
  const scale = Math.max(width, height);
  const grid = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy += 1)
    for (let gx = 0; gx < gw; gx += 1)
      grid[gy * gw + gx] = Math.min(1, Math.max(0, field((gx * step) / scale, (gy * step) / scale)));
  const lut = colorTable(palette.colors);
  for (let y = 0; y < height; y += 1) {
    const top = Math.floor(y / step) * gw;
    const bottom = top + gw;
    const fy = (y % step) / step;
    let o = y * width * 4;
    for (let gx = 0, x = 0; x < width; gx += 1) {
      // Down each side of the cell first; then across, a constant step per pixel.
      const left = grid[top + gx]! + (grid[bottom + gx]! - grid[top + gx]!) * fy;
      const right = grid[top + gx + 1]! + (grid[bottom + gx + 1]! - grid[top + gx + 1]!) * fy;
      const across = (right - left) / step;
      for (let k = 0; k < step && x < width; k += 1, x += 1, o += 4) {
        const l = Math.round((left + across * k) * 255) * 3;
        data[o] = lut[l]!;
        data[o + 1] = lut[l + 1]!;
        data[o + 2] = lut[l + 2]!;
        data[o + 3] = 255;
      }
    }
  }
}
