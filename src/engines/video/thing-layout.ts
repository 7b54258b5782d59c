/**
 * Where the library's things go in the first view, by where they belong: what flies across the
 * sky above the horizon, what floats on the water (on a pond, within it, bobbing in place), what
 * stands or walks on the ground (farther is higher up and smaller; by a pond, on its near bank),
 * a frog on a lily pad, what drifts through space anywhere in the frame. A scene of one or
 * two small things makes them its subject: larger, in front, near the middle.
 */
import { hashOf, seeded, type Random } from '../random.js';
import { GROUND_LINE, ROAD } from './land.js';
import { lilyPadsOf } from './lilypads.js';
import { beforePond, onPond, pondOf } from './pond.js';
import type { Stage } from './stage.js';
import type { Thing } from './things.js';
import type { Form } from './vocabulary.js';

export interface PlacedThing {
  thing: Thing;
  x: number;
  /** World y its foot rests on (the middle of what flies or drifts). */
  foot: number;
  /** Its height in world units. */
  height: number;
  /** Below the horizon, in frame heights (0 for what is in the air): hazier the farther. */
  depth: number;
  /** 1: faces (and moves) right. Noto draws most things facing left. */
  facing: 1 | -1;
  /** World units per second along x. */
  speed: number;
  phase: number;
  /** Stands on a mound of rock: on a scene of open water. */
  onRock: boolean;
}

/** Pace in frame heights per second, before scale. */
const PACE: Record<Thing['motion'], number> = {
  fly: 0.07,
  float: 0.01,
  drive: 0.16,
  walk: 0.035,
  drift: 0.012,
  blink: 0,
  still: 0,
};

const scaleAt = (depth: number) => 0.55 + 1.5 * depth;

/** `n` places across the view's width, each in its own slot, in an order the seed picks. */
function slots(random: Random, n: number, width: number): number[] {
  const slot = (0.84 * width) / Math.max(1, n);
  const xs = Array.from(
    { length: n },
    (_, i) => -0.42 * width + (i + 0.5) * slot + (random() - 0.5) * 0.5 * slot,
  );
  for (let i = xs.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

export function placeThings(
  things: readonly Thing[],
  s: Stage,
  forms: readonly Form[],
  speed: number,
  subjects: number,
): PlacedThing[] {
  const random = seeded(hashOf('things', s.seed));
  const u = s.unit;
  const has = (f: Form) => forms.includes(f);
  const ground = Math.max(0, ...Object.entries(GROUND_LINE).map(([f, line]) => (has(f as Form) ? line : 0)));
  const shores: readonly Form[] = [
    'beach',
    'land',
    'snowfield',
    'room',
    'river',
    'blocks',
    'trunks',
    'blossoms',
    'dunes',
    'ridges',
    'volcano',
    'seabed',
  ];
  const openWater = has('waves') && !shores.some(has);
  const pond = has('pond') ? pondOf(s) : undefined;
  // A frog sits on a lily pad, the nearest free one first.
  const pads = has('lilypads') ? lilyPadsOf(s, forms).reverse() : [];
  const instances = things.flatMap((t) => Array<Thing>(t.count).fill(t));
  // One or two small things and nothing else: they are what the picture is of.
  const heroes = instances.length + subjects <= 2;
  const onGround = instances.filter((t) => t.habitat === 'ground');
  const groundX = slots(random, onGround.length, s.width);
  const placed: PlacedThing[] = [];
  const side = (): 1 | -1 => (random() < 0.5 ? -1 : 1);
  let g = 0;
  for (const thing of instances) {
    const facing = side();
    const pace = PACE[thing.motion] * u * speed;
    const phase = random() * Math.PI * 2;
    const pad = thing.art === 'frog' ? pads.shift() : undefined;
    if (pad) {
      const height = 1.1 * pad.r;
      placed.push({
        thing: { ...thing, motion: 'still' },
        x: pad.x,
        foot: pad.y + 0.1 * pad.r,
        height,
        depth: (pad.y - s.horizon) / u,
        facing,
        speed: 0,
        phase,
        onRock: false,
      });
    } else if (thing.habitat === 'ground') {
      const x = heroes && onGround.length === 1 ? (random() - 0.5) * 0.2 * s.width : groundX[g++]!;
      const near = heroes && thing.size < 0.2;
      const depth = near
        ? ground + 0.22 + random() * 0.06
        : ground + 0.03 + random() * (thing.motion === 'still' ? 0.16 : 0.24);
      const road = thing.motion === 'drive' && has('road');
      const at = road ? ROAD[0] + (ROAD[1] - ROAD[0]) * (0.3 + 0.5 * random()) : depth;
      // What stands or walks by a pond keeps to its near bank.
      const foot = pond ? beforePond(pond, x, s.horizon + at * u, 0.02 * u) : s.horizon + at * u;
      const scale = scaleAt((foot - s.horizon) / u) * (near ? Math.max(1, 0.3 / thing.size) : 1);
      placed.push({
        thing,
        x,
        foot,
        height: thing.size * scale * u,
        depth: (foot - s.horizon) / u,
        facing,
        speed: facing * pace * scale,
        phase,
        onRock: openWater,
      });
    } else if (thing.habitat === 'water' && has('seabed')) {
      // Under the sea: anywhere in the water above the seabed, nearer ones larger.
      const depth = random() * 0.2;
      const scale = scaleAt(depth) * (heroes ? 1.8 : 1.2);
      placed.push({
        thing,
        x: (random() - 0.5) * 0.9 * s.width,
        foot: s.horizon + (0.1 - 0.45 * random()) * u,
        height: thing.size * scale * u,
        depth,
        facing,
        speed: facing * pace * scale * 3,
        phase,
        onRock: false,
      });
    } else if (thing.habitat === 'water' && pond) {
      const [x, y] = onPond(pond, random, 0.45);
      const depth = (y - s.horizon) / u;
      const scale = scaleAt(depth) * (heroes ? 1.3 : 1);
      placed.push({
        thing,
        x,
        foot: y + 0.12 * thing.size * scale * u,
        height: thing.size * scale * u,
        depth,
        facing,
        speed: 0,
        phase,
        onRock: false,
      });
    } else if (thing.habitat === 'water') {
      const depth = 0.04 + random() * 0.22;
      const scale = scaleAt(depth) * (heroes ? 1.6 : 1);
      placed.push({
        thing,
        x: (random() - 0.5) * 0.9 * s.width,
        foot: s.horizon + depth * u + 0.12 * thing.size * scale * u,
        height: thing.size * scale * u,
        depth,
        facing,
        speed: facing * pace * scale,
        phase,
        onRock: false,
      });
    } else {
      // The sky over the horizon; space everywhere, nearer and farther.
      const scale = (heroes ? 1.8 : 1) * (0.7 + random() * 0.5);
      const foot =
        thing.habitat === 'space'
          ? (random() - 0.5) * 0.7 * u
          : Math.max(-0.42 * u, s.horizon - (0.12 + random() * 0.28) * u);
      placed.push({
        thing,
        x: (random() - 0.5) * 0.9 * s.width,
        foot,
        height: thing.size * scale * u,
        depth: 0,
        facing,
        speed: facing * pace * scale,
        phase,
        onRock: false,
      });
    }
  }
  // Back to front: what is in the air over everything, farther things first.
  const aloft = (p: PlacedThing) => (p.thing.habitat === 'sky' || p.thing.habitat === 'space' ? 1 : 0);
  return placed.sort((a, b) => aloft(a) - aloft(b) || a.foot - b.foot);
}
