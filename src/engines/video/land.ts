/**
 * The near layer's grounds, drawn back to front: ridgelines, dunes, waves, a beach, plain land, a
 * river, city blocks, tree trunks, a meadow, a pond and the lily pads on water, a road, a
 * campfire, a volcano and floating orbs. Each is a few shapes laid out cell by cell along the
 * world, so it reaches as far as the camera goes and no further. Lit things take the hour's
 * light; fire and lit windows glow as they are. In winter (a snowy stage) the land, the forest
 * floor and the mountains lie under snow.
 */
import { fbm1, type Rgb } from '../paint/index.js';
import { disc, fillColumns, fillRect, mixRgb, over, packed, shade } from './draw.js';
import { extentOf, type Layer } from './layer.js';
import { paintLilyPads } from './lilypads.js';
import { pondOf } from './pond.js';
import { riverOf } from './river.js';
import { paintCampfire, paintVolcano } from './fire.js';
import { paintSeabed, SEABED_LINE } from './underwater.js';
import { cellRandom, formRandom, lit, snowLit, type Stage } from './stage.js';
import type { Form } from './words.js';

/** Cells of `size` world units covering the layer's width, with their index. */
function cells(layer: Layer, size: number): number[] {
  const [left, , right] = extentOf(layer);
  const out: number[] = [];
  for (let k = Math.floor(left / size) - 1; k <= Math.ceil(right / size); k += 1) out.push(k);
  return out;
}

const bottomOf = (layer: Layer) => extentOf(layer)[3];

/** The three ridgelines, far to near: world y of each crest at world x. */
export function ridgeLines(s: Stage): ((x: number) => number)[] {
  const random = formRandom(s, 'ridges');
  const u = s.unit;
  return [0, 1, 2].map((j) => {
    const line = fbm1(random, 5);
    const scale = 0.7 * u * (1 - j * 0.2);
    const base = s.horizon + (j - 0.5) * 0.06 * u;
    const height = (0.34 - j * 0.08) * u;
    return (x: number) => base - height * line(x / scale + 40 * j) ** 1.4;
  });
}

/**
 * Three ridgelines, the farthest palest in the haze. By day the nearest are green and earthy, so
 * hills do not read as water; in winter all three lie under snow, the steep faces darker.
 */
function ridges(layer: Layer, s: Stage): void {
  const u = s.unit;
  const bottom = bottomOf(layer);
  const far = lit(s, shade(s.palette.colors[2]!, 0.8));
  const earth = lit(s, mixRgb(s.palette.colors[1]!, [84, 128, 66], 0.8));
  const snow = snowLit(s, [236, 242, 250]);
  const distance = snowLit(s, [136, 156, 192]);
  const lines = ridgeLines(s);
  lines.forEach((peak, j) => {
    // Snowy ridges step back into blue-grey; others into the sky's haze.
    const color = s.snowy
      ? mixRgb(snow, distance, 0.5 - j * 0.24)
      : mixRgb(mixRgb(far, earth, j / 2), s.skyLow, 0.55 - j * 0.22);
    // Lit from the left over a wide step, and only near the crest, so no column streaks down.
    const step = 0.05 * u;
    // Columns are painted one after another: the crest and its slope once per column.
    let [column, crest, slope] = [NaN, 0, 0];
    fillColumns(
      layer,
      peak,
      () => bottom,
      (x, y) => {
        if (x !== column)
          [column, crest, slope] = [x, peak(x), (peak(x + step) - peak(x - step)) / (2 * step)];
        const depth = Math.min(1, (y - crest) / u);
        const light = Math.max(-0.06, Math.min(0.06, slope * 0.4)) * Math.max(0, 1 - depth * 8);
        return packed(shade(color, 1 + light - (s.snowy ? 0.15 : 0.25) * depth));
      },
    );
  });
}

function dunes(layer: Layer, s: Stage): void {
  const random = formRandom(s, 'dunes');
  const u = s.unit;
  const sand = lit(s, mixRgb(s.palette.colors[0]!, [230, 190, 120], 0.6));
  for (let j = 0; j < 4; j += 1) {
    const roll = fbm1(random, 3);
    const phase = random() * 10;
    const base = s.horizon + (0.02 + j * 0.09) * u;
    const crest = (x: number) =>
      base - 0.07 * u * (0.6 * Math.sin(x / (0.35 * u) + phase) + 0.4 * roll(x / (0.5 * u)));
    const tone = shade(sand, 0.8 + j * 0.07);
    // Lit from the left: faces that rise to the right are brighter. The slope is taken over a
    // wide step, so the noise's fine detail does not streak the shading.
    const step = 0.03 * u;
    let [column, top, slope] = [NaN, 0, 0];
    fillColumns(
      layer,
      crest,
      () => bottomOf(layer),
      (x, y) => {
        if (x !== column)
          [column, top, slope] = [x, crest(x), (crest(x + step) - crest(x - step)) / (2 * step)];
        const depth = Math.min(1, (y - top) / (0.15 * u));
        return packed(shade(tone, 1 + Math.max(-0.2, Math.min(0.2, slope * 1.5)) - 0.1 * depth));
      },
    );
  }
}

/** Steps of colour between one crest of the sea and the next. */
const LEVELS = 64;

function waves(layer: Layer, s: Stage): void {
  const u = s.unit;
  const bottom = bottomOf(layer);
  const shallow = mixRgb(lit(s, s.palette.colors[0]!), s.skyLow, 0.4);
  const deep = lit(s, shade(s.palette.colors[2]!, 0.8));
  const foam = lit(s, mixRgb(s.palette.paper, [255, 255, 255], 0.5));
  const random = formRandom(s, 'waves');
  // Rows of crests, closer together near the horizon as perspective would have them.
  const rows: { y: number; amp: number; freq: number; phase: number }[] = [];
  for (let k = 1; ; k += 1) {
    const y = s.horizon + 0.01 * u * k ** 1.6;
    if (y > bottom + 0.1 * u) break;
    rows.push({
      y,
      amp: 0.004 * u * k ** 0.9,
      freq: (2 * Math.PI) / (0.18 * u * k ** 0.7),
      phase: random() * 6.28,
    });
  }
  // A row's colours at LEVELS steps between one crest and the next, worked out once.
  const d = layer.density;
  const y0 = Math.max(0, Math.round(layer.oy + s.horizon * d));
  const table = new Int32Array(Math.max(0, layer.height - y0) * (LEVELS + 1));
  for (let py = y0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / d;
    const base = mixRgb(shallow, deep, Math.min(1, (y - s.horizon) / (0.6 * u)));
    for (let k = 0; k <= LEVELS; k += 1) {
      const within = k / LEVELS;
      const color =
        within < 0.12 ? mixRgb(base, foam, 0.55 * (1 - within / 0.12)) : shade(base, 1.08 - 0.2 * within);
      table[(py - y0) * (LEVELS + 1) + k] = packed(color);
    }
  }
  // Column by column: the crests once, then down the column past them in order.
  const crests = new Float64Array(rows.length);
  for (let px = 0; px < layer.width; px += 1) {
    const x = (px - layer.ox) / d;
    rows.forEach((row, k) => (crests[k] = row.y + row.amp * Math.sin(x * row.freq + row.phase)));
    let next = 0;
    for (let py = y0; py < layer.height; py += 1) {
      const y = (py - layer.oy) / d;
      while (next < crests.length && crests[next]! <= y) next += 1;
      const above = next > 0 ? crests[next - 1]! : s.horizon;
      const below = next < crests.length ? crests[next]! : bottom + u;
      // Rows rounded up from just above the horizon count as on it, not beyond the foam.
      const within = Math.min(1, Math.max(0, (y - above) / Math.max(1, below - above)));
      over(layer.data, py * layer.width + px, table[(py - y0) * (LEVELS + 1) + Math.round(within * LEVELS)]!);
    }
  }
}

/** Below the horizon, in frame heights, where the ground in front of a city or forest begins. */
export const GROUND_LINE = {
  beach: 0.2,
  blocks: 0.16,
  trunks: 0.12,
  seabed: SEABED_LINE,
} as const satisfies Partial<Record<Form, number>>;

function blocks(layer: Layer, s: Stage): void {
  const u = s.unit;
  const ground = s.horizon + GROUND_LINE.blocks * u;
  const dark = lit(s, shade(s.palette.colors[2]!, 0.75));
  const evening = s.time === 'night' || s.time === 'dusk';
  const windows: Rgb = evening ? [255, 214, 140] : mixRgb(s.skyLow, [255, 255, 255], 0.3);
  for (const [row, width, haze] of [
    [0, 0.09 * u, 0.45],
    [1, 0.07 * u, 0],
  ] as const) {
    for (const k of cells(layer, width)) {
      const r = cellRandom(s, `blocks${row}`, k);
      const left = k * width + r() * 0.1 * width;
      const right = (k + 1) * width - r() * 0.15 * width;
      const top = ground - (row === 0 ? 0.25 + r() * 0.3 : 0.12 + r() * 0.3) * u;
      const body = mixRgb(shade(dark, 0.85 + r() * 0.3), s.skyLow, haze);
      fillRect(layer, left, top, right, ground + row * 0.02 * u, packed(body));
      const size = 0.012 * u;
      for (let y = top + size; y < ground - size; y += size * 1.8) {
        for (let x = left + size * 0.7; x < right - size; x += size * 1.6) {
          if (r() < (evening ? 0.45 : 0.25)) {
            fillRect(layer, x, y, x + size, y + size, packed(mixRgb(body, windows, 0.75 - haze)));
          }
        }
      }
    }
  }
  fillRect(layer, extentOf(layer)[0], ground, extentOf(layer)[2], bottomOf(layer), packed(shade(dark, 0.7)));
}

function trunks(layer: Layer, s: Stage): void {
  const u = s.unit;
  const ground = s.horizon + GROUND_LINE.trunks * u;
  if (s.snowy) snowfield(layer, s, ground);
  else {
    const floor = lit(s, shade(mixRgb(s.palette.colors[2]!, [60, 80, 40], 0.3), 0.7));
    fillRect(layer, extentOf(layer)[0], ground, extentOf(layer)[2], bottomOf(layer), packed(floor));
  }
  const bark = lit(s, mixRgb(shade(s.palette.colors[2]!, 0.5), [70, 48, 30], 0.5));
  const width = 0.11 * u;
  for (const k of cells(layer, width)) {
    const r = cellRandom(s, 'trunks', k);
    const x = (k + 0.5) * width + (r() - 0.5) * 0.5 * width;
    const foot = ground + r() * 0.12 * u;
    const girth = (0.012 + r() * 0.022) * u * (1 + (foot - ground) / u);
    const top = foot - (0.55 + r() * 0.45) * u;
    fillRect(layer, x - girth / 2, top, x + girth / 2, foot, packed(shade(bark, 0.8 + r() * 0.4)));
    for (let leaf = 0; leaf < 9; leaf += 1) {
      const leafColor = lit(s, shade(s.palette.colors[leaf % 2]!, 0.55 + r() * 0.5));
      const radius = (0.04 + r() * 0.07) * u;
      const [lx, ly] = [x + (r() - 0.5) * 0.2 * u, top + (r() - 0.3) * 0.15 * u];
      disc(layer, lx, ly, radius, leafColor, 0.92, 0.15);
      // Snow settles on the top of each clump of leaves.
      if (s.snowy) disc(layer, lx, ly - 0.45 * radius, 0.6 * radius, snowLit(s, [236, 242, 250]), 0.85, 0.3);
    }
  }
}

function blossoms(layer: Layer, s: Stage): void {
  const u = s.unit;
  const bottom = bottomOf(layer);
  grass(layer, s, mixRgb(s.palette.colors[1]!, [90, 150, 70], 0.4), 0.35);
  const petals = (
    [
      s.palette.paper,
      s.palette.colors[0]!,
      [250, 220, 90],
      mixRgb(s.palette.colors[0]!, [240, 110, 160], 0.6),
    ] as Rgb[]
  ).map((c) => lit(s, c));
  const width = 0.05 * u;
  for (const k of cells(layer, width)) {
    const r = cellRandom(s, 'blossoms', k);
    for (let y = s.horizon + 0.01 * u; y < bottom; y += (0.008 + (0.03 * (y - s.horizon)) / u) * u) {
      const near = (y - s.horizon) / u;
      const size = (0.002 + 0.012 * near) * u;
      disc(
        layer,
        (k + r()) * width,
        y + r() * 0.01 * u,
        size,
        petals[Math.floor(r() * petals.length)]!,
        0.95,
      );
    }
  }
}

/** Sand in front of the sea, its edge washed by a line of foam. */
function beach(layer: Layer, s: Stage): void {
  const u = s.unit;
  const random = formRandom(s, 'beach');
  const edge = fbm1(random, 3);
  const line = (x: number) => s.horizon + (GROUND_LINE.beach + 0.02 * (edge(x / (0.4 * u)) - 0.5)) * u;
  const sand = lit(s, mixRgb(s.palette.colors[0]!, [226, 200, 150], 0.7));
  const foam = lit(s, [244, 246, 240]);
  const bottom = bottomOf(layer);
  fillColumns(
    layer,
    line,
    () => bottom,
    (x, y) => {
      const wet = (y - line(x)) / (0.012 * u);
      return packed(
        wet < 1 ? mixRgb(foam, sand, wet) : shade(sand, 1 - 0.2 * Math.min(1, (y - line(x)) / u)),
      );
    },
  );
}

/**
 * Grass of `color` from the horizon down, darker by `fade` a frame height nearer the viewer: one
 * colour a row, so each row is a fill.
 */
function grass(layer: Layer, s: Stage, color: Rgb, fade: number): void {
  const u = s.unit;
  const lawn = lit(s, color);
  const d = layer.density;
  for (let py = Math.max(0, Math.round(layer.oy + s.horizon * d)); py < layer.height; py += 1) {
    const y = (py - layer.oy) / d;
    const shaded = packed(shade(lawn, 1.05 - fade * Math.min(1, (y - s.horizon) / u)));
    layer.data.fill(shaded, py * layer.width, (py + 1) * layer.width);
  }
}

/** Grass from the horizon down, darker toward the viewer: plain land, and a river's banks. */
function land(layer: Layer, s: Stage): void {
  if (s.snowy) snowfield(layer, s);
  else grass(layer, s, mixRgb(s.palette.colors[1]!, [104, 150, 76], 0.65), 0.3);
}

/**
 * Snow from `top` down (the horizon by default, where it rolls in low drifts, since a flat edge
 * would read as the sea's), blue in the hollows, brighter on the drifts that catch the light.
 */
function snowfield(layer: Layer, s: Stage, top = s.horizon): void {
  const u = s.unit;
  const random = formRandom(s, 'snowfield');
  const drift = fbm1(random, 3);
  const roll = fbm1(random, 3);
  const snow = snowLit(s, [240, 245, 252]);
  const hollow = snowLit(s, [170, 188, 220]);
  const edge = top === s.horizon ? (x: number) => top - 0.035 * u * roll(x / (0.45 * u)) : () => top;
  let [column, crest] = [NaN, 0];
  fillColumns(
    layer,
    edge,
    () => bottomOf(layer),
    (x, y) => {
      if (x !== column) [column, crest] = [x, edge(x)];
      const depth = Math.min(1, (y - top) / u);
      const ripple = drift(x / (0.3 * u) + depth * 9);
      // Just below the rolling edge the drift's far side lies in shade.
      const lee = Math.max(0, 1 - (y - crest) / (0.02 * u));
      return packed(mixRgb(snow, hollow, Math.min(1, 0.1 + 0.65 * ripple * (1 - depth) + 0.25 * lee)));
    },
  );
}

/** A wooden floor from the wall's foot down: boards running toward the viewer, in perspective. */
function room(layer: Layer, s: Stage): void {
  const u = s.unit;
  const wood = lit(s, mixRgb(s.palette.colors[1]!, [150, 100, 62], 0.7));
  const boards = 0.09 * u;
  fillColumns(
    layer,
    () => s.horizon,
    () => bottomOf(layer),
    (x, y) => {
      const depth = Math.max(0.02, (y - s.horizon) / u);
      // Boards converge on the vanishing point at the middle of the wall's foot.
      const across = x / (depth * 4) / boards;
      const seam = Math.abs(across - Math.round(across)) < 0.04;
      const grain = 0.94 + 0.06 * Math.sin(Math.round(across) * 12.9 + depth * 40);
      return packed(shade(wood, (seam ? 0.72 : grain) * (0.8 + 0.25 * Math.min(1, depth))));
    },
  );
}

/** Banks of grass, and water between them that mirrors the sky, with ripples across it. */
function river(layer: Layer, s: Stage): void {
  land(layer, s);
  const u = s.unit;
  const course = riverOf(s);
  const water = mixRgb(s.skyLow, lit(s, [46, 96, 150]), 0.55);
  const d = layer.density;
  const y0 = Math.max(0, Math.ceil(layer.oy + s.horizon * d));
  for (let py = y0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / d;
    const half = course.halfWidth(y);
    if (half <= 0) continue;
    const centre = course.centre(y);
    const depth = (y - s.horizon) / u;
    const ripple = 1 + 0.06 * Math.sin(depth * 260) * Math.min(1, depth * 8);
    const color = packed(shade(water, (1.08 - 0.25 * Math.min(1, depth / 0.5)) * ripple));
    const from = Math.max(0, Math.round(layer.ox + (centre - half) * d));
    const to = Math.min(layer.width, Math.round(layer.ox + (centre + half) * d));
    for (let px = from; px < to; px += 1) over(layer.data, py * layer.width + px, color);
  }
}

/**
 * Still water in the land: a muddy bank a little wider than the water, and water that mirrors the
 * sky, paler toward its far shore, with a few faint ripples across it.
 */
function pond(layer: Layer, s: Stage): void {
  const u = s.unit;
  const p = pondOf(s);
  const water = mixRgb(s.skyLow, lit(s, [46, 96, 150]), 0.45);
  const bank = lit(s, mixRgb(s.palette.colors[2]!, [86, 96, 52], 0.7));
  const d = layer.density;
  const rim = 0.012 * u;
  const y0 = Math.max(0, Math.floor(layer.oy + (p.y - p.ry - rim) * d));
  const y1 = Math.min(layer.height, Math.ceil(layer.oy + (p.y + p.ry + rim) * d));
  for (let py = y0; py < y1; py += 1) {
    const y = (py - layer.oy) / d;
    const row = (rx: number, ry: number, color: number) => {
      const t = (y - p.y) / ry;
      if (t * t >= 1) return;
      const half = rx * Math.sqrt(1 - t * t);
      const from = Math.max(0, Math.round(layer.ox + (p.x - half) * d));
      const to = Math.min(layer.width, Math.round(layer.ox + (p.x + half) * d));
      layer.data.fill(color, py * layer.width + from, py * layer.width + Math.max(from, to));
    };
    row(p.rx + 2 * rim, p.ry + rim, packed(shade(bank, 0.85 + 0.3 * ((y - p.y) / p.ry))));
    const across = (y - (p.y - p.ry)) / (2 * p.ry);
    const ripple = 1 + 0.05 * Math.sin(across * 60) * across;
    row(p.rx, p.ry, packed(shade(mixRgb(s.skyLow, water, 0.5 + 0.5 * across), ripple)));
  }
}

/** Where a road runs across the ground, below the horizon in frame heights; cars drive on it. */
export const ROAD: readonly [number, number] = [0.18, 0.27];

/** Asphalt across the whole ground, with its edges and a dashed middle line. */
function road(layer: Layer, s: Stage): void {
  const u = s.unit;
  const [left, , right] = extentOf(layer);
  const [top, bottom] = [s.horizon + ROAD[0] * u, s.horizon + ROAD[1] * u];
  fillRect(layer, left, top, right, bottom, packed(lit(s, [72, 72, 78])));
  const paint = packed(lit(s, [230, 226, 200]));
  const line = 0.004 * u;
  fillRect(layer, left, top + line, right, top + 2 * line, paint);
  fillRect(layer, left, bottom - 2 * line, right, bottom - line, paint);
  const middle = (top + bottom) / 2;
  const dash = 0.05 * u;
  for (let x = Math.floor(left / (2 * dash)) * 2 * dash; x < right; x += 2 * dash)
    fillRect(layer, x, middle - line / 2, x + dash, middle + line / 2, paint);
}

function orbs(layer: Layer, s: Stage): void {
  const u = s.unit;
  const size = 0.3 * u;
  const [, top, , bottom] = extentOf(layer);
  for (let j = Math.floor(top / size) - 1; j <= Math.ceil(bottom / size); j += 1) {
    for (const k of cells(layer, size)) {
      const r = cellRandom(s, `orbs${j}`, k);
      const color = s.palette.colors[Math.floor(r() * s.palette.colors.length)]!;
      const radius = (0.04 + r() * 0.12) * u;
      disc(layer, (k + r()) * size, (j + r()) * size, radius, shade(color, 1.15), 0.35 + r() * 0.3, 0.6);
    }
  }
}

const PAINTERS: Partial<Record<Form, (layer: Layer, stage: Stage, forms: readonly Form[]) => void>> = {
  seabed: paintSeabed,
  ridges,
  dunes,
  waves,
  beach,
  land,
  // Its third parameter is where the snow begins, not the forms: called without it.
  snowfield: (layer, stage) => snowfield(layer, stage),
  room,
  river,
  blocks,
  trunks,
  blossoms,
  pond,
  lilypads: paintLilyPads,
  road,
  flames: paintCampfire,
  volcano: paintVolcano,
  orbs,
};

/** Paints the near layer's forms in the order given (back to front). */
export function paintLand(layer: Layer, stage: Stage, forms: readonly Form[]): void {
  for (const form of forms) PAINTERS[form]?.(layer, stage, forms);
}
