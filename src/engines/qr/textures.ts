/**
 * The ground each material paints before the code: paper with its fibres, watercolour washes,
 * a dark wall for neon, veined marble, wood grain, mosaic tiles on the module grid, stained
 * glass cells with their leading, linen weave, and pixel blocks. Colours come from the look
 * and the prompt's palette, so "blue marble" and "red mosaic" differ.
 */
import type { Canvas } from '../canvas.js';
import { fbm1, noise2, type Palette, type Rgb } from '../paint/index.js';
import type { Random } from '../random.js';
import type { Look } from './materials.js';

/** The module grid: its top-left pixel and the module's size. */
export interface Grid {
  x: number;
  y: number;
  module: number;
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

type Painter = (x: number, y: number) => Rgb;

/**
 * The painter's colour over the canvas, evaluated every `step` pixels and blended bilinearly
 * between: textures are smooth at that scale, and a tenth of the evaluations keeps a render
 * within its budget. Step 1 paints every pixel (tile and pixel edges must stay sharp).
 */
function fill(canvas: Canvas, painter: Painter, step: number): void {
  const { width, height, data } = canvas;
  const columns = Math.ceil(width / step) + 1;
  const rows = Math.ceil(height / step) + 1;
  const grid = new Float32Array(columns * rows * 3);
  for (let j = 0; j < rows; j += 1)
    for (let i = 0; i < columns; i += 1) grid.set(painter(i * step, j * step), (j * columns + i) * 3);
  for (let y = 0; y < height; y += 1) {
    const j = Math.floor(y / step);
    const fy = (y - j * step) / step;
    for (let x = 0; x < width; x += 1) {
      const i = Math.floor(x / step);
      const fx = (x - i * step) / step;
      const a = (j * columns + i) * 3;
      const b = a + columns * 3;
      const o = (y * width + x) * 4;
      for (let c = 0; c < 3; c += 1) {
        const top = grid[a + c]! + (grid[a + 3 + c]! - grid[a + c]!) * fx;
        const bottom = grid[b + c]! + (grid[b + 3 + c]! - grid[b + c]!) * fx;
        data[o + c] = top + (bottom - top) * fy;
      }
      data[o + 3] = 255;
    }
  }
}

/** Octaves of plane noise, in [0, 1], at `scale` pixels per lattice cell. */
function fbm(random: Random, scale: number, octaves: number): (x: number, y: number) => number {
  const layers = Array.from({ length: octaves }, () => noise2(random));
  const norm = 1 - 0.5 ** octaves;
  return (x, y) => {
    let sum = 0;
    let weight = 0.5;
    let k = 1 / scale;
    for (const layer of layers) {
      sum += weight * layer(x * k, y * k);
      weight /= 2;
      k *= 2;
    }
    return sum / norm;
  };
}

/** A hash of a cell, in [0, 1). */
const cellHash = (i: number, j: number, salt: number) => {
  let h = Math.imul(i * 374761393 + j * 668265263 + salt * 2246822519, 3266489917);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
};

/**
 * Ink-wash hills, as a brush lays them on wet paper: three ridgelines across the lower part of
 * the sheet, the farthest palest, each wash darkest along its crest and fading down into the
 * mist below it. Gives the wash's strength in [0, 1] at a pixel.
 */
function washHills(random: Random, width: number, height: number): (x: number, y: number) => number {
  // Each crest's height, worked out once per column (the fill asks for every column again on
  // each row it paints).
  const ridges = [0, 1, 2].map((k) => {
    const line = fbm1(random, 3);
    const [base, rise] = [(0.42 + 0.17 * k) * height, (0.32 - 0.05 * k) * height];
    const crests = Float32Array.from(
      { length: width + 2 },
      (_, x) => base - rise * line(x / (0.35 * width)) ** 1.5,
    );
    return { crests, ink: 0.4 + 0.25 * k };
  });
  return (x, y) => {
    let wash = 0;
    for (const { crests, ink } of ridges) {
      const crest = crests[Math.min(crests.length - 1, x)]!;
      if (y < crest) continue;
      // Darkest at the crest, then the wash thins toward the mist.
      const below = (y - crest) / (0.3 * height);
      wash = Math.max(wash, ink * Math.max(0.5, Math.exp(-below)));
    }
    return wash;
  };
}

/**
 * The material's ground. `bare`: nothing will be drawn over it, so an ink ground is a wash
 * landscape of its own rather than plain paper.
 */
export function paintTexture(
  canvas: Canvas,
  look: Look,
  palette: Palette,
  random: Random,
  grid: Grid,
  bare = false,
): void {
  const salt = Math.floor(random() * 1e6);
  const hues = palette.colors;
  const tint = (k: number) => hues[k % hues.length]!;
  switch (look.material) {
    case 'ink': {
      const fibre = fbm(random, 3, 2);
      const mottle = fbm(random, 160, 3);
      const hills = bare ? washHills(random, canvas.width, canvas.height) : undefined;
      fill(
        canvas,
        (x, y) => {
          const n = 0.93 + 0.05 * fibre(x, y * 0.4) + 0.08 * (mottle(x, y) - 0.5);
          const paper = mix(look.paper, [214, 190, 146], 0.35 * (1 - n)).map((c) => c * n) as Rgb;
          return hills ? mix(paper, look.ink, hills(x, y)) : paper;
        },
        2,
      );
      return;
    }
    case 'watercolour': {
      const washes = [0, 1, 2].map(() => fbm(random, 220, 4));
      const grain = fbm(random, 2, 1);
      fill(
        canvas,
        (x, y) => {
          let colour: Rgb = look.paper;
          washes.forEach((wash, k) => {
            const v = wash(x + k * 97, y);
            if (v > 0.5) {
              // Pigment pools at a wash's edge: stronger just inside it.
              const edge = Math.max(0, 1 - (v - 0.5) / 0.06);
              colour = mix(colour, mix(tint(k), [255, 255, 255], 0.35), Math.min(0.85, 0.45 + 0.3 * edge));
            }
          });
          const n = 0.97 + 0.03 * grain(x, y);
          return [colour[0] * n, colour[1] * n, colour[2] * n];
        },
        4,
      );
      return;
    }
    case 'neon': {
      const haze = fbm(random, 200, 3);
      const wall: Rgb = [16, 12, 30];
      const glow = mix(tint(0), [255, 60, 200], 0.5);
      fill(
        canvas,
        (x, y) => {
          const brick = (Math.floor(y / 24) % 2 === 0 ? x : x + 24) % 48 < 2 || y % 24 < 2 ? 0.7 : 1;
          return mix(wall, glow, 0.25 * haze(x, y)).map((c) => c * brick) as Rgb;
        },
        4,
      );
      return;
    }
    case 'marble': {
      const warp = fbm(random, 140, 4);
      const fine = fbm(random, 30, 2);
      const vein = mix(tint(2), [54, 60, 66], 0.5);
      fill(
        canvas,
        (x, y) => {
          const t = x * 0.006 + y * 0.004 + 3.2 * warp(x, y) + 0.6 * fine(x, y);
          const s = Math.abs(Math.sin(t * Math.PI * 1.5));
          // Broad clouded bands around each vein, and the vein itself sharp and dark.
          const cloud = Math.pow(1 - s, 2.5) * 0.35;
          const stone = mix(look.paper, tint(0), 0.2 * warp(y, x));
          return mix(mix(stone, vein, cloud), vein, Math.pow(1 - s, 10) * 0.95);
        },
        3,
      );
      return;
    }
    case 'wood': {
      const rings = fbm(random, 90, 3);
      const streak = fbm(random, 1, 1);
      const dark: Rgb = [176, 122, 74];
      fill(
        canvas,
        (x, y) => {
          const t = y * 0.045 + 6 * rings(x * 0.25, y);
          const ring = Math.pow(0.5 + 0.5 * Math.sin(t * Math.PI), 3);
          const n = 0.94 + 0.06 * streak(x * 0.05, y);
          return mix(look.paper, dark, 0.55 * ring).map((c) => c * n) as Rgb;
        },
        2,
      );
      return;
    }
    case 'mosaic': {
      // Tiles on the module grid, so each module is a tile; grout between them.
      fill(
        canvas,
        (x, y) => {
          const u = (x - grid.x) / grid.module;
          const v = (y - grid.y) / grid.module;
          const [i, j] = [Math.floor(u), Math.floor(v)];
          const fu = u - i;
          const fv = v - j;
          if (fu < 0.08 || fv < 0.08) return [226, 222, 212];
          const h = cellHash(i, j, salt);
          return mix(
            mix(tint(Math.floor(h * 3)), [255, 255, 255], 0.3),
            look.paper,
            0.25 * cellHash(j, i, salt),
          );
        },
        1,
      );
      return;
    }
    case 'glass': {
      const size = 26;
      const jewels: Rgb[] = [
        [200, 40, 60],
        [40, 90, 190],
        [230, 170, 40],
        [40, 150, 90],
        [130, 60, 170],
        ...hues,
      ];
      fill(
        canvas,
        (x, y) => {
          // The nearest of jittered points on a grid: Voronoi cells, leaded where two meet.
          const [ci, cj] = [Math.floor(x / size), Math.floor(y / size)];
          let [first, second, owner] = [Infinity, Infinity, 0];
          for (let dj = -1; dj <= 1; dj += 1)
            for (let di = -1; di <= 1; di += 1) {
              const [i, j] = [ci + di, cj + dj];
              const px = (i + cellHash(i, j, salt)) * size;
              const py = (j + cellHash(j, i, salt)) * size;
              const d = Math.hypot(x - px, y - py);
              if (d < first) [second, first, owner] = [first, d, cellHash(i, j, salt + 1)];
              else if (d < second) second = d;
            }
          if (second - first < 2.2) return [44, 40, 44];
          const glass = jewels[Math.floor(owner * jewels.length)]!;
          return mix(glass, [255, 255, 255], 0.15 + 0.25 * (first / size));
        },
        2,
      );
      return;
    }
    case 'embroidery': {
      const slub = fbm(random, 6, 1);
      fill(
        canvas,
        (x, y) => {
          const weave = (x >> 2) % 2 === (y >> 2) % 2 ? 1 : 0.93;
          return look.paper.map((c) => c * weave * (0.96 + 0.05 * slub(x, y * 0.2))) as Rgb;
        },
        2,
      );
      return;
    }
    case 'pixel': {
      const block = Math.max(2, grid.module);
      const field = fbm(random, 180, 2);
      const steps: Rgb[] = [
        mix(tint(0), [255, 255, 255], 0.55),
        mix(tint(1), [255, 255, 255], 0.35),
        tint(2),
      ];
      fill(
        canvas,
        (x, y) => {
          const bx = Math.floor((x - grid.x) / block) * block + grid.x;
          const by = Math.floor((y - grid.y) / block) * block + grid.y;
          return steps[Math.min(2, Math.floor(field(bx, by) * 3.2))]!;
        },
        1,
      );
      return;
    }
  }
}
