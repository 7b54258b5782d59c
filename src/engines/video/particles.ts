/**
 * What moves within the scene while the camera moves over it: snow, rain, leaves, fireflies,
 * bubbles, embers, dust, the tongues of a fire, and light glinting on moving water. Particles
 * live in world coordinates of the near layer, so they travel with the scene, and are splatted
 * into each frame after the camera. A fire's tongues and sparks rise from where it burns.
 */
import type { Rgb } from '../paint/index.js';
import { hashOf, seeded, type Random } from '../random.js';
import { mixRgb } from './draw.js';
import { campfireOf, craterFire, volcanoOf, type FireSite } from './fire.js';
import { GROUND_LINE } from './land.js';
import type { Stage } from './stage.js';
import type { Motion } from './types.js';
import type { Form, Weather } from './words.js';

type Kind = Weather | 'flame' | 'glints';

interface Look {
  /** Per square frame height. */
  density: number;
  size: [number, number];
  /** World units per second, in frame heights. */
  vx: [number, number];
  vy: [number, number];
  sway: number;
  alpha: number;
  glow: boolean;
  /** Streak length in frame heights along the velocity (rain). */
  streak: number;
  /** Flickers or blinks. */
  blink: boolean;
  colors: (stage: Stage) => Rgb[];
}

const LOOKS: Record<Kind, Look> = {
  snow: {
    density: 150,
    size: [0.003, 0.008],
    vx: [-0.02, 0.02],
    vy: [0.06, 0.14],
    sway: 0.02,
    alpha: 0.85,
    glow: false,
    streak: 0,
    blink: false,
    colors: () => [[250, 250, 255]],
  },
  rain: {
    density: 220,
    size: [0.0012, 0.002],
    vx: [0.12, 0.18],
    vy: [1.0, 1.3],
    sway: 0,
    alpha: 0.35,
    glow: false,
    streak: 0.05,
    blink: false,
    colors: (s) => [mixRgb(s.skyLow, [255, 255, 255], 0.6)],
  },
  leaves: {
    density: 18,
    size: [0.006, 0.011],
    vx: [-0.03, 0.05],
    vy: [0.06, 0.12],
    sway: 0.05,
    alpha: 0.95,
    glow: false,
    streak: 0,
    blink: false,
    colors: (s) => [[210, 110, 40], [180, 60, 30], mixRgb(s.palette.colors[0]!, [230, 170, 60], 0.5)],
  },
  fireflies: {
    density: 25,
    size: [0.003, 0.006],
    vx: [-0.01, 0.01],
    vy: [-0.01, 0.01],
    sway: 0.04,
    alpha: 0.9,
    glow: true,
    streak: 0,
    blink: true,
    colors: () => [
      [255, 240, 150],
      [210, 255, 160],
    ],
  },
  bubbles: {
    density: 30,
    size: [0.004, 0.01],
    vx: [-0.01, 0.01],
    vy: [-0.16, -0.08],
    sway: 0.01,
    alpha: 0.35,
    glow: false,
    streak: 0,
    blink: false,
    colors: () => [[235, 250, 255]],
  },
  embers: {
    density: 45,
    size: [0.002, 0.004],
    vx: [-0.03, 0.03],
    vy: [-0.3, -0.18],
    sway: 0.03,
    alpha: 0.9,
    glow: true,
    streak: 0,
    blink: true,
    colors: () => [
      [255, 170, 60],
      [255, 120, 30],
    ],
  },
  dust: {
    density: 80,
    size: [0.0015, 0.003],
    vx: [0.01, 0.03],
    vy: [-0.01, 0.01],
    sway: 0.01,
    alpha: 0.35,
    glow: false,
    streak: 0,
    blink: false,
    colors: (s) => [s.palette.paper],
  },
  // Short bright streaks on the sea that drift with the swell and come and go: the water moves.
  glints: {
    density: 90,
    size: [0.0015, 0.003],
    vx: [0.01, 0.03],
    vy: [0, 0],
    sway: 0.01,
    alpha: 0.6,
    glow: false,
    streak: 0.025,
    blink: true,
    colors: (s) => [mixRgb(s.skyLow, [255, 255, 255], 0.7)],
  },
  flame: {
    density: 0,
    size: [0.03, 0.06],
    vx: [-0.02, 0.02],
    vy: [-0.45, -0.3],
    sway: 0.01,
    alpha: 0.45,
    glow: true,
    streak: 0,
    blink: false,
    colors: () => [[255, 210, 120]],
  },
};

export interface Swarm {
  look: Look;
  x: Float32Array;
  y: Float32Array;
  vx: Float32Array;
  vy: Float32Array;
  size: Float32Array;
  phase: Float32Array;
  color: Rgb[];
  /** The world rectangle the swarm wraps around in: drifting out one side brings it in the other. */
  left: number;
  top: number;
  width: number;
  span: number;
  /** Seconds one flame tongue lives (flames only, 0 otherwise). */
  life: number;
  /** Frame height in world units. */
  unit: number;
}

const between = (random: Random, [a, b]: [number, number]) => a + (b - a) * random();

/** A world rectangle: left, top, right, bottom. */
type Area = readonly [number, number, number, number];

/**
 * A swarm of `kind` wrapping around `area`; flame tongues (`fire` given) are born along its
 * bottom edge and live `fire.life` seconds, sparks over a fire are as many as `count` says.
 */
function swarmOf(kind: Kind, stage: Stage, area: Area, speed: number, fire?: FireSite): Swarm {
  const look = LOOKS[kind];
  const [left, low, right, high] = area;
  const u = stage.unit;
  const flame = kind === 'flame';
  const extent = ((right - left) * Math.max(0, high - low)) / (u * u);
  const count = Math.min(
    2500,
    Math.round(flame ? (right - left) / (0.01 * u) : Math.max(look.density * extent, fire ? 40 : 0)),
  );
  const random = seeded(hashOf(kind, stage.seed));
  const palette = look.colors(stage);
  const size = fire && flame ? fire.width / (0.14 * u) : 1;
  const swarm: Swarm = {
    look,
    x: new Float32Array(count),
    y: new Float32Array(count),
    vx: new Float32Array(count),
    vy: new Float32Array(count),
    size: new Float32Array(count),
    phase: new Float32Array(count),
    color: [],
    left,
    top: low,
    width: Math.max(1, right - left),
    span: Math.max(1, high - low),
    life: flame ? (fire?.life ?? 0.6) : 0,
    unit: u,
  };
  for (let i = 0; i < count; i += 1) {
    // Tongues crowd toward the middle of the fire, where it burns tallest.
    const across = flame ? 0.5 + (random() + random() - 1) * 0.5 : random();
    swarm.x[i] = left + across * (right - left);
    swarm.y[i] = flame ? high : low + random() * (high - low);
    swarm.vx[i] = between(random, look.vx) * u * speed;
    swarm.vy[i] = between(random, look.vy) * u * speed;
    swarm.size[i] = between(random, look.size) * u * size * (flame ? 1 - Math.abs(across - 0.5) : 1);
    swarm.phase[i] = random() * Math.PI * 2;
    swarm.color.push(palette[i % palette.length]!);
  }
  return swarm;
}

/** Below the horizon, in frame heights, where sparks stop when no fire is named. */
const SPARK_LINE = 0.32;

/**
 * The swarms a scene has: its weather, flame tongues and sparks where there is fire, glints on
 * open sea. Sparks rise from a campfire or a crater; with neither they fill the air.
 */
export function swarmsFor(
  weather: readonly Weather[],
  forms: readonly Form[],
  stage: Stage,
  extent: readonly number[],
  speed: number,
): Swarm[] {
  const [left, top, right, bottom] = extent as [number, number, number, number];
  const u = stage.unit;
  const fires = [
    ...(forms.includes('flames') ? [campfireOf(stage)] : []),
    ...(forms.includes('volcano') ? [craterFire(volcanoOf(stage))] : []),
  ];
  const above = (f: FireSite, reach: number): Area => [
    f.x - f.width,
    f.base - reach * u,
    f.x + f.width,
    f.base,
  ];
  const swarms: Swarm[] = [];
  for (const kind of weather) {
    if (kind === 'embers' && fires.length > 0)
      for (const f of fires) swarms.push(swarmOf(kind, stage, above(f, 0.6), speed, f));
    else {
      const underSea = forms.includes('seabed');
      const low = kind === 'bubbles' && !underSea ? Math.max(top, stage.horizon + 0.01 * u) : top;
      const high = kind === 'embers' ? Math.min(bottom, stage.horizon + SPARK_LINE * u) : bottom;
      swarms.push(swarmOf(kind, stage, [left, low, right, high], speed));
    }
  }
  for (const f of fires)
    swarms.push(swarmOf('flame', stage, [f.x - f.width / 2, f.base, f.x + f.width / 2, f.base], speed, f));
  // A river has ripples of its own; the sea glints as far as the beach, if there is one.
  if (forms.includes('waves')) {
    const shore = forms.includes('beach') ? stage.horizon + GROUND_LINE.beach * u : bottom;
    swarms.push(
      swarmOf(
        'glints',
        stage,
        [left, Math.max(top, stage.horizon + 0.01 * u), right, Math.min(bottom, shore)],
        speed,
      ),
    );
  }
  return swarms;
}

/**
 * Adds (glow) or lays (otherwise) a colour at one pixel with weight k in 0..256, in integers:
 * tens of thousands of pixels a frame go through here.
 */
function splatPixel(frame: Int32Array, i: number, c: Rgb, k: number, glow: boolean): void {
  const d = frame[i]!;
  let r = d & 0xff;
  let g = (d >>> 8) & 0xff;
  let b = (d >>> 16) & 0xff;
  if (glow) {
    r += (c[0] * k) >> 8;
    g += (c[1] * k) >> 8;
    b += (c[2] * k) >> 8;
    if (r > 255) r = 255;
    if (g > 255) g = 255;
    if (b > 255) b = 255;
  } else {
    r += ((c[0] - r) * k) >> 8;
    g += ((c[1] - g) * k) >> 8;
    b += ((c[2] - b) * k) >> 8;
  }
  frame[i] = 0xff000000 | (b << 16) | (g << 8) | r;
}

/** A soft round dot of radius r (pixels) centred at (x, y). */
function dot(
  frame: Int32Array,
  width: number,
  height: number,
  x: number,
  y: number,
  r: number,
  c: Rgb,
  alpha: number,
  glow: boolean,
): void {
  const radius = Math.max(0.7, r);
  const a0 = alpha * Math.min(1, r / 0.7) ** 2;
  const x0 = Math.max(0, Math.floor(x - radius));
  const x1 = Math.min(width - 1, Math.ceil(x + radius));
  const y0 = Math.max(0, Math.floor(y - radius));
  const y1 = Math.min(height - 1, Math.ceil(y + radius));
  const inv = 1 / (radius * radius);
  for (let py = y0; py <= y1; py += 1) {
    for (let px = x0; px <= x1; px += 1) {
      const dd = ((px - x) ** 2 + (py - y) ** 2) * inv;
      if (dd < 1) splatPixel(frame, py * width + px, c, (a0 * (1 - dd) * 256) | 0, glow);
    }
  }
}

/** Draws every swarm at time t (seconds) as the near camera `m` sees it; `opacity` fades all. */
export function drawSwarms(
  frame: Int32Array,
  width: number,
  height: number,
  swarms: readonly Swarm[],
  t: number,
  m: Motion,
  opacity: number,
): void {
  if (opacity <= 0) return;
  const cos = Math.cos(m.roll) * m.zoom;
  const sin = Math.sin(m.roll) * m.zoom;
  const cx = m.x * width;
  const cy = m.y * height;
  for (const s of swarms) {
    const look = s.look;
    for (let i = 0; i < s.x.length; i += 1) {
      const phase = s.phase[i]!;
      let wx: number;
      let wy: number;
      let size = s.size[i]!;
      let alpha = look.alpha * opacity;
      if (s.life > 0) {
        // A flame tongue: born at the fire line, rises and shrinks over its life, then again.
        const life = s.life * (0.6 + 0.4 * Math.sin(phase) ** 2);
        const age = ((t + (phase / (2 * Math.PI)) * life) % life) / life;
        wx = s.x[i]! + s.vx[i]! * age * life + Math.sin(phase * 3 + t * 9) * look.sway * s.unit;
        wy = s.y[i]! + s.vy[i]! * age * life;
        size *= 1 - age * 0.85;
        alpha *= 1 - age * 0.6;
      } else {
        wx = s.left + ((((s.x[i]! + s.vx[i]! * t - s.left) % s.width) + s.width) % s.width);
        wx += Math.sin(phase + t * (1 + (phase % 1.3))) * look.sway * s.unit;
        wy = s.top + ((((s.y[i]! + s.vy[i]! * t - s.top) % s.span) + s.span) % s.span);
        if (look.blink) alpha *= 0.35 + 0.65 * Math.sin(phase + t * (2 + (phase % 2))) ** 2;
      }
      const dx = wx - cx;
      const dy = wy - cy;
      const x = width / 2 + cos * dx + sin * dy;
      const y = height / 2 - sin * dx + cos * dy;
      const r = size * m.zoom;
      if (x < -r - 50 || y < -r - 50 || x > width + r + 50 || y > height + r + 50) continue;
      const color = s.color[i]!;
      if (look.streak > 0) {
        // A streak: dots back along the screen direction of travel, fading.
        const back = (look.streak * s.unit) / (Math.hypot(s.vx[i]!, s.vy[i]!) || 1) / 4;
        const sx = (cos * s.vx[i]! + sin * s.vy[i]!) * back;
        const sy = (-sin * s.vx[i]! + cos * s.vy[i]!) * back;
        for (let k = 0; k < 5; k += 1)
          dot(frame, width, height, x - sx * k, y - sy * k, r, color, alpha * (1 - k / 5), false);
      } else dot(frame, width, height, x, y, r, color, alpha, look.glow);
    }
  }
}
