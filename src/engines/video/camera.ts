/**
 * Camera paths: a camera move becomes beats (equal shares of the clip, each with its own rates),
 * and the beats become one Motion per frame for the near layer and one for the far layer. The far
 * layer follows turns and lens zooms fully but only part of a truck or push, which is what makes
 * a truck read as moving through the scene and a pan as turning on the spot.
 */
import type { Random } from '../random.js';
import type { CameraMove, CameraPreset, Motion } from './types.js';

/** Per second: truck and pan in frames, push and zoom in log of the zoom factor, roll in radians. */
export interface Velocity {
  truckX: number;
  truckY: number;
  panX: number;
  panY: number;
  push: number;
  zoom: number;
  roll: number;
}

/** One share of the clip: a steady move that starts and ends at rest, and how much it shakes. */
export interface Beat {
  velocity: Partial<Velocity>;
  shake?: number;
}

export interface CameraPath {
  near: Motion[];
  far: Motion[];
}

/** How much of a truck or push the far layer sees. */
export const PARALLAX = 0.45;
const SLIDE = 0.08;
const DEPTH = 0.1;
const TURN = 0.1;

const PRESETS: Record<CameraPreset, Partial<Velocity>> = {
  down_back: { truckY: SLIDE, push: -DEPTH },
  forward_up: { truckY: -SLIDE, push: DEPTH },
  left_turn_forward: { panX: -SLIDE, push: DEPTH },
  right_turn_forward: { panX: SLIDE, push: DEPTH },
};

/** Director commands, lower case with single spaces. Tracking shots pick a side by seed. */
const COMMANDS: Record<string, (random: Random) => Beat> = {
  'truck left': () => ({ velocity: { truckX: -SLIDE } }),
  'truck right': () => ({ velocity: { truckX: SLIDE } }),
  'pan left': () => ({ velocity: { panX: -SLIDE } }),
  'pan right': () => ({ velocity: { panX: SLIDE } }),
  'push in': () => ({ velocity: { push: DEPTH } }),
  'pull out': () => ({ velocity: { push: -DEPTH } }),
  'pedestal up': () => ({ velocity: { truckY: -SLIDE } }),
  'pedestal down': () => ({ velocity: { truckY: SLIDE } }),
  'tilt up': () => ({ velocity: { panY: -SLIDE } }),
  'tilt down': () => ({ velocity: { panY: SLIDE } }),
  'zoom in': () => ({ velocity: { zoom: DEPTH } }),
  'zoom out': () => ({ velocity: { zoom: -DEPTH } }),
  shake: () => ({ velocity: {}, shake: 1 }),
  'tracking shot': (random) => ({ velocity: { truckX: (random() < 0.5 ? -1 : 1) * SLIDE }, shake: 0.15 }),
  'static shot': () => ({ velocity: {} }),
};

/** The beats of a move; without one, a slow drift in a direction the seed picks. */
export function beatsOf(move: CameraMove | undefined, random: Random): Beat[] {
  if (!move) {
    const angle = random() * Math.PI * 2;
    return [{ velocity: { truckX: Math.cos(angle) * 0.03, truckY: Math.sin(angle) * 0.015, push: 0.025 } }];
  }
  switch (move.kind) {
    case 'fixed':
      return [{ velocity: {} }];
    case 'preset':
      return [{ velocity: PRESETS[move.name] }];
    case 'simple': {
      const c = move.config;
      const velocity: Partial<Velocity> = {
        truckX: (c.horizontal ?? 0) * SLIDE,
        truckY: -(c.vertical ?? 0) * SLIDE,
        panX: (c.pan ?? 0) * SLIDE,
        panY: -(c.tilt ?? 0) * SLIDE,
        roll: (c.roll ?? 0) * TURN,
        zoom: (c.zoom ?? 0) * DEPTH,
      };
      return [{ velocity }];
    }
    case 'sequence': {
      const beats = move.commands.map((command) => {
        const make = COMMANDS[command.trim().replace(/\s+/g, ' ').toLowerCase()];
        return make ? make(random) : { velocity: {} };
      });
      return beats.length > 0 ? beats : [{ velocity: {} }];
    }
  }
}

/** Share of a beat's travel done at u in [0, 1]: at rest at both ends, fastest in the middle. */
const travelled = (u: number) => u - Math.sin(2 * Math.PI * u) / (2 * Math.PI);

/** Handheld jitter: three incommensurate sines, zero at the start of the beat. */
function jitter(t: number, phases: readonly number[], rates: readonly number[]): number {
  let sum = 0;
  for (let k = 0; k < rates.length; k += 1) {
    sum += (Math.sin(phases[k]! + rates[k]! * t) - Math.sin(phases[k]!)) / (k + 1);
  }
  return sum / 1.8;
}

const SHAKE_RATES = [2 * Math.PI * 3.1, 2 * Math.PI * 4.7, 2 * Math.PI * 7.3];

/**
 * One Motion per frame for each layer. `speed` scales every rate (calm prompts move slower);
 * the first frame is always at rest, so it shows exactly what a start image holds.
 */
export function cameraPath(
  beats: readonly Beat[],
  frames: number,
  fps: number,
  speed: number,
  random: Random,
): CameraPath {
  const span = Math.max(0, frames - 1) / fps;
  const share = span / beats.length;
  const phases = beats.map(() => [0, 1, 2].map(() => random() * Math.PI * 2));
  const near: Motion[] = [];
  const far: Motion[] = [];
  for (let i = 0; i < frames; i += 1) {
    const t = i / fps;
    let truckX = 0;
    let truckY = 0;
    let panX = 0;
    let panY = 0;
    let push = 0;
    let zoom = 0;
    let roll = 0;
    beats.forEach((beat, k) => {
      const local = Math.min(share, Math.max(0, t - k * share));
      const u = share > 0 ? local / share : 0;
      const amount = share * speed * travelled(u);
      const v = beat.velocity;
      truckX += (v.truckX ?? 0) * amount;
      truckY += (v.truckY ?? 0) * amount;
      panX += (v.panX ?? 0) * amount;
      panY += (v.panY ?? 0) * amount;
      push += (v.push ?? 0) * amount;
      zoom += (v.zoom ?? 0) * amount;
      roll += (v.roll ?? 0) * amount;
      const shake = beat.shake ?? 0;
      if (shake > 0 && u > 0 && u < 1) {
        const envelope = Math.sin(Math.PI * u) * shake;
        const p = phases[k]!;
        panX += 0.012 * envelope * jitter(local, p, SHAKE_RATES);
        panY += 0.012 * envelope * jitter(local, [p[1]!, p[2]!, p[0]!], SHAKE_RATES);
        roll += 0.008 * envelope * jitter(local, [p[2]!, p[0]!, p[1]!], SHAKE_RATES);
      }
    });
    near.push({ x: truckX + panX, y: truckY + panY, zoom: Math.exp(zoom + push), roll });
    far.push({
      x: PARALLAX * truckX + panX,
      y: PARALLAX * truckY + panY,
      zoom: Math.exp(zoom + PARALLAX * push),
      roll,
    });
  }
  return { near, far };
}
