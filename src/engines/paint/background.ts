/**
 * Procedural backgrounds: a field t in [0, 1] per pixel, from the pattern, mapped through the
 * palette's colours. `detail` (from `steps`) is how many octaves of noise refine the field.
 */
import type { Palette, Rgb } from './palette.js';
import type { Random } from '../random.js';
import type { Canvas } from '../canvas.js';

const smooth = (t: number) => t * t * (3 - 2 * t);

/** One octave of value noise: a lattice of random values, `cells` to the unit square's side. */
interface Octave {
  cells: number;
  lattice: Float32Array;
}

function octaveOf(random: Random, cells: number): Octave {
  const n = cells + 1;
  return { cells, lattice: Float32Array.from({ length: n * n }, () => random()) };
}

/**
 * Fractal noise (the octaves summed, each half the weight of the one before) at the points of a
 * `size` × `size` grid `spacing` apart from the origin, the point (i, j) at [j * size + i]. Worked
 * out a row at a time, so each octave's row position and weight are found once a row.
 */
function fbmGrid(octaves: readonly Octave[], size: number, spacing: number): Float32Array {
  const out = new Float32Array(size * size);
  let weight = 0.5;
  for (const { cells, lattice } of octaves) {
    const n = cells + 1;
    for (let j = 0; j < size; j += 1) {
      const gy = j * spacing * cells;
      const y0 = Math.min(cells - 1, Math.floor(gy));
      const fy = smooth(gy - y0);
      const top = y0 * n;
      const bottom = top + n;
      const row = j * size;
      for (let i = 0; i < size; i += 1) {
        const gx = i * spacing * cells;
        const x0 = Math.min(cells - 1, Math.floor(gx));
        const fx = smooth(gx - x0);
        const a = lattice[top + x0]!;
        const b = lattice[top + x0 + 1]!;
        const c = lattice[bottom + x0]!;
        const d = lattice[bottom + x0 + 1]!;
        const upper = a + (b - a) * fx;
        const lower = c + (d - c) * fx;
        out[row + i]! += weight * (upper + (lower - upper) * fy);
      }
    }
    weight /= 2;
  }
  const total = 1 - 0.5 ** octaves.length;
  for (let k = 0; k < out.length; k += 1) out[k]! /= total;
  return out;
}

/**
 * The pattern's field at (x, y), given the fractal noise there (`noise`) and at the mirrored
 * point (y, x) (`mirrored`), which waves bend along.
 */
type Field = (x: number, y: number, noise: number, mirrored: number) => number;

function fieldOf(palette: Palette, random: Random): Field {
  const angle = random() * Math.PI;
  const [ax, ay] = [Math.cos(angle), Math.sin(angle)];
  const frequency = 4 + random() * 8;
  const [cx, cy] = [random(), random()];
  const seeds = Array.from({ length: 9 }, () => [random(), random()] as const);
  switch (palette.pattern) {
    case 'gradient':
      return (x, y, noise) => 0.8 * ((x * ax + y * ay + 1) / 2) + 0.2 * noise;
    case 'stripes':
      return (x, y, noise) => 0.5 + 0.4 * Math.sin((x * ax + y * ay) * frequency * Math.PI * 2 + noise * 2);
    case 'rings':
      return (x, y, noise) =>
        0.5 + 0.4 * Math.sin(Math.hypot(x - cx, y - cy) * frequency * Math.PI * 2 + noise);
    case 'waves':
      return (x, y, noise, mirrored) =>
        0.5 +
        0.25 * Math.sin((x * frequency + noise * 3) * Math.PI) +
        0.25 * Math.sin((y * frequency * 0.7 + mirrored * 3) * Math.PI);
    case 'cells':
      return (x, y, noise) => {
        let best = Infinity;
        let second = Infinity;
        for (const [sx, sy] of seeds) {
          const d = Math.hypot(x - sx, y - sy);
          if (d < best) [best, second] = [d, best];
          else if (d < second) second = d;
        }
        return Math.min(1, (second - best) * 4) * 0.8 + 0.2 * noise;
      };
    case 'plain':
      return (_x, _y, noise) => 0.15 * noise;
    case 'noise':
      return (_x, _y, noise) => noise;
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
  const octaves = Array.from({ length: Math.max(1, detail) }, (_, i) => octaveOf(random, 3 * 2 ** i));
  const field = fieldOf(palette, random);
  const { width, height, data } = canvas;
  const step = 4;
  const gw = Math.ceil(width / step) + 1;
  const gh = Math.ceil(height / step) + 1;
  const scale = Math.max(width, height);
  // Square, so that the mirrored point of every grid point is on it too.
  const side = Math.max(gw, gh);
  const noise = fbmGrid(octaves, side, step / scale);
  const grid = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy += 1)
    for (let gx = 0; gx < gw; gx += 1) {
      const t = field(
        (gx * step) / scale,
        (gy * step) / scale,
        noise[gy * side + gx]!,
        noise[gx * side + gy]!,
      );
      grid[gy * gw + gx] = Math.min(1, Math.max(0, t));
    }
  // The palette as whole RGBA words (little-endian: R in the low byte), one store a pixel.
  const table = colorTable(palette.colors);
  const words = new Int32Array(256);
  for (let i = 0; i < 256; i += 1)
    words[i] = (255 << 24) | (table[i * 3 + 2]! << 16) | (table[i * 3 + 1]! << 8) | table[i * 3]!;
  const pixels = new Int32Array(data.buffer, data.byteOffset, width * height);
  for (let y = 0; y < height; y += 1) {
    const top = Math.floor(y / step) * gw;
    const bottom = top + gw;
    const fy = (y % step) / step;
    let o = y * width;
    for (let gx = 0, x = 0; x < width; gx += 1) {
      // Down each side of the cell first; then across, a constant step per pixel, in 0–255.
      const left = 255 * (grid[top + gx]! + (grid[bottom + gx]! - grid[top + gx]!) * fy);
      const right = 255 * (grid[top + gx + 1]! + (grid[bottom + gx + 1]! - grid[top + gx + 1]!) * fy);
      const across = (right - left) / step;
      for (let k = 0; k < step && x < width; k += 1, x += 1, o += 1) {
        pixels[o] = words[(left + across * k + 0.5) | 0]!;
      }
    }
  }
}
