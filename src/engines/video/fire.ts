/**
 * Fire as things that stand in a place, not as a band across the world: a campfire (stones, logs,
 * the glow it casts on the ground and the body of its flame) and a volcano (a cone with a crater,
 * lava running down its flanks, a plume of ash). What moves in them, the flame's tongues and the
 * sparks, rises from the sites given here (particles.ts).
 */
import { fbm1, type Rgb } from '../paint/index.js';
import { disc, fillColumns, fillPolygon, mixRgb, packed, shade, stroke, type Point } from './draw.js';
import { extentOf, type Layer } from './layer.js';
import { formRandom, lit, type Stage } from './stage.js';

/** Where a fire burns (world units): the middle of its base, how wide and how tall its flame. */
export interface FireSite {
  x: number;
  /** World y of the flame's base. */
  base: number;
  width: number;
  height: number;
  /** Seconds one tongue of its flame lives. */
  life: number;
}

/** Below the horizon in frame heights, where a campfire stands. */
const CAMPFIRE_LINE = 0.3;

export function campfireOf(s: Stage): FireSite {
  const r = formRandom(s, 'campfire');
  const u = s.unit;
  return {
    x: (r() - 0.5) * 0.4 * u,
    base: s.horizon + CAMPFIRE_LINE * u,
    width: 0.14 * u,
    height: 0.2 * u,
    life: 0.55,
  };
}

export interface Volcano {
  x: number;
  /** World y of the crater's rim, and of the foot of the cone. */
  peak: number;
  foot: number;
  /** Half widths of the crater and of the cone's foot. */
  crater: number;
  spread: number;
}

export function volcanoOf(s: Stage): Volcano {
  const r = formRandom(s, 'volcano');
  const u = s.unit;
  return {
    x: (r() - 0.5) * 0.5 * u,
    peak: s.horizon - (0.3 + 0.06 * r()) * u,
    foot: s.horizon + 0.03 * u,
    crater: 0.06 * u,
    spread: 0.8 * u,
  };
}

/** The fire burning in a volcano's crater, whose tongues and sparks rise from it. */
export function craterFire(v: Volcano): FireSite {
  return { x: v.x, base: v.peak + 0.01 * v.spread, width: 1.6 * v.crater, height: 0.4 * v.crater, life: 0.5 };
}

const EMBER: Rgb = [120, 40, 16];
const FLAME: Rgb = [255, 150, 40];
const CORE: Rgb = [255, 236, 170];

/** Stones in a ring, crossed logs, a pool of warm light on the ground, and the flame's body. */
export function paintCampfire(layer: Layer, s: Stage): void {
  const f = campfireOf(s);
  const u = s.unit;
  const dark = s.time === 'night' || s.time === 'dusk';
  // The light it throws: wider and stronger the darker the hour.
  disc(layer, f.x, f.base, (dark ? 0.5 : 0.25) * u, [255, 170, 80], dark ? 0.45 : 0.2, 1);
  const r = formRandom(s, 'campfire-stones');
  // The front half of a ring of stones round the fire's foot.
  for (let k = 0; k < 9; k += 1) {
    const a = (Math.PI * k) / 8;
    const stone = lit(s, shade([128, 122, 116], 0.75 + 0.3 * r()));
    const [x, y] = [f.x + Math.cos(a) * 0.65 * f.width, f.base + Math.sin(a) * 0.025 * u];
    disc(layer, x, y, (0.014 + 0.008 * r()) * u, stone, 1);
  }
  const wood = lit(s, [92, 60, 36]);
  const half = 0.5 * f.width;
  stroke(layer, [f.x - half, f.base + 0.01 * u], [f.x + 0.35 * half, f.base - 0.05 * u], 0.022 * u, wood);
  stroke(layer, [f.x + half, f.base + 0.01 * u], [f.x - 0.35 * half, f.base - 0.05 * u], 0.022 * u, wood);
  stroke(layer, [f.x - 0.8 * half, f.base], [f.x + 0.8 * half, f.base], 0.02 * u, shade(wood, 0.8));
  flameBody(layer, f, 1);
}

/** A flame's body: nested tongues, orange outside and pale at the heart, glowing as they are. */
function flameBody(layer: Layer, f: FireSite, alpha: number): void {
  const shape = (w: number, h: number): Point[] => {
    const points: Point[] = [];
    for (let k = 0; k <= 16; k += 1) {
      const t = k / 16;
      const side = Math.sin(Math.PI * t);
      // Wide and round at the foot, drawn to a point at the tip.
      points.push([
        f.x + (t - 0.5) * w * 2 * (0.4 + 0.6 * side),
        f.base - h * side ** 0.6 * (k === 8 ? 1 : 0.7),
      ]);
    }
    return points;
  };
  fillPolygon(layer, shape(0.5 * f.width, f.height), mixRgb(FLAME, [220, 60, 20], 0.3), 0.9 * alpha);
  fillPolygon(layer, shape(0.34 * f.width, 0.7 * f.height), FLAME, alpha);
  fillPolygon(layer, shape(0.18 * f.width, 0.42 * f.height), CORE, alpha);
}

/**
 * A cone with a crater, lit from the left, on a plain of dark rock; lava running down from the
 * crater; a glow over it and a plume of ash drifting off.
 */
export function paintVolcano(layer: Layer, s: Stage): void {
  const v = volcanoOf(s);
  const u = s.unit;
  const [left, , right, bottom] = extentOf(layer);
  const rock = lit(s, mixRgb(s.palette.colors[2]!, [84, 70, 66], 0.7));
  const plain = lit(s, mixRgb(s.palette.colors[2]!, [70, 62, 56], 0.75));
  const haze = (c: Rgb, t: number) => mixRgb(c, s.skyLow, t);
  fillColumns(
    layer,
    () => s.horizon,
    () => bottom,
    (_, y) => packed(shade(haze(plain, 0.25), 0.8 + 0.25 * Math.min(1, (y - s.horizon) / (0.4 * u)))),
  );
  const random = formRandom(s, 'volcano-flank');
  const rough = fbm1(random, 4);
  // Steep near the top and flattening toward the foot, as ash cones are.
  const flank = (x: number) => {
    const dx = Math.abs(x - v.x);
    const crater = dx < v.crater ? 0.012 * u * Math.cos((dx / v.crater) * (Math.PI / 2)) : 0;
    const t = Math.min(1, Math.max(0, (dx - v.crater) / (v.spread - v.crater)) ** (1 / 1.9));
    return v.peak + (v.foot - v.peak) * t + crater + 0.012 * u * (rough(x / (0.08 * u)) - 0.5) * t;
  };
  fillColumns(
    layer,
    (x) => (x < v.x - v.spread || x > v.x + v.spread ? v.foot : flank(x)),
    () => v.foot + 0.002 * u,
    (x, y) => {
      // Lit from the left: the far flank turns into shade across the crater.
      const lee = 0.86 - 0.14 * Math.tanh((x - v.x) / (0.08 * u));
      const depth = Math.min(1, (y - v.peak) / (v.foot - v.peak));
      return packed(shade(haze(rock, 0.3 * (1 - depth)), lee * (0.9 + 0.2 * depth)));
    },
  );
  // Lava: a few streams from the rim down the flanks, bright at their heads.
  const lava = formRandom(s, 'volcano-lava');
  for (let k = 0; k < 5; k += 1) {
    const side = k % 2 ? 1 : -1;
    let [x, y] = [v.x + side * v.crater * (0.3 + 0.5 * lava()), flank(v.x + side * v.crater * 0.6)];
    const reach = (0.25 + 0.35 * lava()) * (v.foot - v.peak);
    const end = y + reach;
    while (y < end) {
      const step = 0.02 * u;
      const nx = x + side * step * (0.6 + 0.8 * lava()) * (1 + (y - v.peak) / u);
      const ny = Math.max(y + 0.004 * u, flank(nx));
      const heat = 1 - (y - v.peak) / reach;
      disc(layer, x, y, (0.012 + 0.012 * heat) * u, FLAME, 0.25 * heat, 1);
      stroke(layer, [x, y], [nx, ny], (0.006 + 0.01 * heat) * u, mixRgb(EMBER, FLAME, 0.4 + 0.6 * heat));
      [x, y] = [nx, ny];
    }
  }
  disc(layer, v.x, v.peak, 3 * v.crater, [255, 120, 40], 0.55, 1);
  flameBody(layer, craterFire(v), 0.9);
  // Ash: puffs rising from the crater, growing and drifting with the wind, paler as they thin.
  const ash = lit(s, [96, 90, 92]);
  const plume = formRandom(s, 'volcano-ash');
  const drift = plume() < 0.5 ? -1 : 1;
  for (let k = 0; k < 24; k += 1) {
    const t = k / 23;
    const x = v.x + drift * t * t * 0.7 * u + (plume() - 0.5) * 0.08 * u * t;
    const y = v.peak - 0.04 * u - t * 0.6 * u;
    if (x < left - u || x > right + u) continue;
    disc(layer, x, y, (0.04 + 0.14 * t) * u, shade(ash, 0.7 + 0.5 * t), 0.6 * (1 - 0.5 * t), 0.6);
  }
}
