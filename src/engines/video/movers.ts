/**
 * Subjects that move while the camera moves: walkers stride, cars drive, birds beat their wings,
 * boats drift and bob, windmills turn their sails. Each is painted once per pose into a small
 * sprite (a layer of its own, its origin where it stands) and laid into every frame where the
 * near camera sees it then. One
 * that leaves the stretch of world the camera covers comes back in on the other side.
 */
import { blend4, under } from './composite.js';
import { layerFor, type Layer } from './layer.js';
import type { Placed } from './layout.js';
import type { Stage } from './stage.js';
import { BOUNDS, SAIL_QUARTER, SUBJECT_PAINTERS } from './subjects.js';
import type { Motion } from './types.js';
import type { Subject } from './vocabulary.js';
import { packed } from './draw.js';
import type { PlacedThing } from './thing-layout.js';
import { spriteOf } from './thing-sprites.js';

/** Poses a cycle is drawn in, and the seconds one cycle lasts at scale 1. */
const CYCLES: Partial<Record<Subject, [poses: number, seconds: number]>> = {
  people: [8, 1.1],
  birds: [4, 0.45],
  windmill: [12, SAIL_QUARTER],
};

export interface Mover {
  poses: Layer[];
  x: number;
  y: number;
  vx: number;
  /** Seconds per pose cycle (0: one pose). */
  cycle: number;
  /** Bobbing on the water, hopping along, flapping in the air: world units, radians a second, phase. */
  bob: number;
  rate: number;
  phase: number;
  /** A light's blinking, radians a second (0: steady). */
  pulse: number;
  /** The world stretch it wraps around in. */
  left: number;
  span: number;
}

/** Radians a second a boat bobs at. */
const BOB_RATE = 2.2;

const still: Motion = { x: 0, y: 0, zoom: 1, roll: 0 };

function sprite(stage: Stage, placed: Placed, phase: number): Layer {
  const [left, top, right, bottom] = BOUNDS[placed.subject];
  const u = stage.unit * placed.scale;
  const [x0, x1] = placed.facing === 1 ? [left, right] : [-right, -left];
  // A layer over the world box [x0, x1] × [top, bottom] (times u) around the origin.
  const width = Math.ceil((x1 - x0) * u);
  const height = Math.ceil((bottom - top) * u);
  const layer = layerFor([still], width, height, 1, 1);
  const shiftX = Math.round((x0 + x1) * u * 0.5);
  const shiftY = Math.round((top + bottom) * u * 0.5);
  const centred: Layer = { ...layer, ox: layer.ox - shiftX, oy: layer.oy - shiftY };
  SUBJECT_PAINTERS[placed.subject](centred, stage, { ...placed, x: 0, foot: 0, phase });
  return centred;
}

/** Sprites for every moving subject, wrapping within `extent` (the near layer's). */
export function moversFor(placed: readonly Placed[], stage: Stage, extent: readonly number[]): Mover[] {
  const [left, , right] = extent as [number, number, number, number];
  return placed.map((p) => {
    const [poses, seconds] = CYCLES[p.subject] ?? [1, 0];
    const margin = 0.3 * stage.unit * p.scale;
    const floats = p.subject === 'boat' || p.subject === 'ship';
    return {
      poses: Array.from({ length: poses }, (_, k) => sprite(stage, p, p.phase + (2 * Math.PI * k) / poses)),
      x: p.x,
      y: p.foot,
      vx: p.speed,
      cycle: seconds * p.scale,
      bob: floats ? 0.003 * stage.unit * p.scale : 0,
      rate: BOB_RATE,
      phase: p.phase,
      pulse: 0,
      left: left - margin,
      span: right - left + 2 * margin,
    };
  });
}

/** How each kind of motion bobs: amplitude (share of the thing's height) and radians a second. */
const BOBS: Record<PlacedThing['thing']['motion'], [number, number]> = {
  fly: [0.12, 7],
  float: [0.04, 2.2],
  drive: [0.01, 20],
  walk: [0.04, 10],
  drift: [0.1, 0.8],
  blink: [0, 0],
  still: [0, 0],
};

/**
 * Movers for the library's things that move, and for each light a glow that blinks over it
 * (the light itself is painted into the scene with what stands still).
 */
export function thingMoversFor(
  placed: readonly PlacedThing[],
  stage: Stage,
  extent: readonly number[],
): Mover[] {
  const [left, , right] = extent as [number, number, number, number];
  return placed.flatMap((p) => {
    const moves = p.thing.motion !== 'still' && p.thing.motion !== 'blink';
    if (!moves && p.thing.motion !== 'blink') return [];
    const [bob, rate] = BOBS[p.thing.motion];
    const margin = p.height;
    return [
      {
        poses: [moves ? spriteOf(p, stage) : glow(0.7 * p.height)],
        x: p.x,
        y: moves ? p.foot : p.foot - 0.6 * p.height,
        vx: p.speed,
        cycle: 0,
        bob: bob * p.height,
        rate,
        phase: p.phase,
        pulse: moves ? 0 : 2.5 + (p.phase % 1.5),
        left: left - margin,
        span: right - left + 2 * margin,
      },
    ];
  });
}

/** A lighthouse's lantern after dusk: a glow that pulses as its light turns. */
export function beaconsFor(placed: readonly Placed[], stage: Stage): Mover[] {
  if (stage.time !== 'dusk' && stage.time !== 'night') return [];
  return placed
    .filter((p) => p.subject === 'lighthouse')
    .map((p) => ({
      poses: [glow(0.1 * stage.unit * p.scale)],
      x: p.x,
      // The lantern's middle, in the lighthouse's own units (subjects.ts).
      y: p.foot - 0.435 * stage.unit * p.scale,
      vx: 0,
      cycle: 0,
      bob: 0,
      rate: 0,
      phase: p.phase,
      pulse: 4,
      left: p.x - 1,
      span: Number.MAX_SAFE_INTEGER,
    }));
}

/** A soft warm glow of `radius` world units, centred on its origin. */
function glow(radius: number): Layer {
  const r = Math.max(2, Math.round(radius));
  const side = 2 * r + 1;
  const data = new Int32Array(side * side);
  for (let y = 0; y < side; y += 1)
    for (let x = 0; x < side; x += 1) {
      const d = Math.hypot(x - r, y - r) / r;
      if (d >= 1) continue;
      const a = 0.55 * (1 - d) ** 2;
      data[y * side + x] = packed([255, 226, 150], a);
    }
  return { width: side, height: side, data, ox: r, oy: r, density: 1 };
}

/** Lays one sprite over the frame where motion `m` sees world point (x, y) as its origin. */
function lay(
  frame: Int32Array,
  width: number,
  height: number,
  sprite: Layer,
  m: Motion,
  x: number,
  y: number,
  opacity: number,
): void {
  const zoom = m.zoom;
  const [cos, sin] = [Math.cos(m.roll), Math.sin(m.roll)];
  const [cx, cy] = [m.x * width, m.y * height];
  const toFrame = (wx: number, wy: number): [number, number] => [
    width / 2 + zoom * (cos * (wx - cx) + sin * (wy - cy)),
    height / 2 + zoom * (-sin * (wx - cx) + cos * (wy - cy)),
  ];
  // The sprite's corners in the frame bound the pixels to visit.
  const corners = [
    [0, 0],
    [sprite.width, 0],
    [0, sprite.height],
    [sprite.width, sprite.height],
  ].map(([px, py]) => toFrame(x + (px! - sprite.ox), y + (py! - sprite.oy)));
  const u0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]))));
  const u1 = Math.min(width - 1, Math.ceil(Math.max(...corners.map((c) => c[0]))));
  const v0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]))));
  const v1 = Math.min(height - 1, Math.ceil(Math.max(...corners.map((c) => c[1]))));
  const k = Math.round(Math.min(1, Math.max(0, opacity)) * 128);
  if (k === 0) return;
  // Sprite point of frame pixel (u, v): a step along a row moves it by (dx, dy).
  const [dx, dy] = [cos / zoom, sin / zoom];
  const sw = sprite.width;
  const d = sprite.data;
  const [maxX, maxY] = [sw - 1, sprite.height - 1];
  for (let v = v0; v <= v1; v += 1) {
    const dv = (v - height / 2) / zoom;
    const du0 = (u0 - width / 2) / zoom;
    let sx = sprite.ox + cx + cos * du0 - sin * dv - x;
    let sy = sprite.oy + cy + sin * du0 + cos * dv - y;
    for (let u = u0; u <= u1; u += 1, sx += dx, sy += dy) {
      if (sx < 0 || sy < 0 || sx >= maxX || sy >= maxY) continue;
      const ix = sx | 0;
      const iy = sy | 0;
      const i = iy * sw + ix;
      const p00 = d[i]!;
      const p01 = d[i + 1]!;
      const p10 = d[i + sw]!;
      const p11 = d[i + sw + 1]!;
      // Most of a sprite's box is clear, and much of the rest wholly opaque.
      if ((p00 | p01 | p10 | p11) === 0) continue;
      const o = v * width + u;
      if (k === 128 && (p00 & p01 & p10 & p11) >>> 24 === 255 && p00 === p01 && p00 === p10 && p00 === p11) {
        frame[o] = p00;
        continue;
      }
      let top = blend4(p00, p01, p10, p11, ((sx - ix) * 128) | 0, ((sy - iy) * 128) | 0);
      if (top === 0) continue;
      if (k < 128) top = blend4(top, 0, top, 0, 128 - k, 0);
      frame[o] = under(top, frame[o]!);
    }
  }
}

/** Draws every mover at time t (seconds) as the near camera `m` sees it; `opacity` fades all. */
export function drawMovers(
  frame: Int32Array,
  width: number,
  height: number,
  movers: readonly Mover[],
  t: number,
  m: Motion,
  opacity: number,
): void {
  if (opacity <= 0) return;
  for (const mover of movers) {
    const travelled = mover.x + mover.vx * t - mover.left;
    const x = mover.left + (((travelled % mover.span) + mover.span) % mover.span);
    const y = mover.y + mover.bob * Math.sin(t * mover.rate + mover.phase);
    const pose =
      mover.cycle > 0 ? Math.floor((t / mover.cycle) * mover.poses.length) % mover.poses.length : 0;
    const glow = mover.pulse > 0 ? 0.55 + 0.45 * Math.sin(t * mover.pulse + mover.phase) : 1;
    lay(frame, width, height, mover.poses[pose]!, m, x, y, opacity * glow);
  }
}
