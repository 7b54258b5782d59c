/**
 * Where the named subjects go in the first view: buildings, windmills, lighthouses and trees
 * share the width of the view, each in its own slot; walkers and cars spread along the ground or
 * the road, boats and ships along the water (on a river, in its middle; on a pond, on it), birds
 * across the sky, a bridge across everything. The seed chooses the order, the places within the
 * slots, the distances (farther is smaller), which way each faces and moves, and how fast: never
 * how many there are.
 */
import { hashOf, seeded, type Random } from '../random.js';
import { GROUND_LINE, ridgeLines, ROAD } from './land.js';
import { beforePond, offPond, onPond, pondOf } from './pond.js';
import { riverOf } from './river.js';
import type { Stage } from './stage.js';
import { BOUNDS, type Pose } from './subjects.js';
import type { Form, Subject } from './vocabulary.js';

export interface Placed extends Pose {
  subject: Subject;
  /** World units per second along x (0 for what stands still). */
  speed: number;
  /** Stands on a mound of rock: land subjects in a scene of open water. */
  onRock: boolean;
}

/** Subjects painted once into the scene; the others move and are drawn frame by frame. */
export const STANDING: readonly Subject[] = ['castle', 'house', 'lighthouse', 'bridge', 'tree'];

/** Distance below the horizon (frame heights) each subject stands at, nearest last. */
const DEPTHS: Record<Subject, [number, number]> = {
  castle: [0.03, 0.06],
  house: [0.06, 0.12],
  windmill: [0.07, 0.12],
  lighthouse: [0.07, 0.12],
  bridge: [0.05, 0.05],
  tree: [0.1, 0.2],
  ship: [0.05, 0.1],
  boat: [0.1, 0.26],
  car: [0.215, 0.25],
  people: [0.16, 0.34],
  birds: [0, 0],
};

/** Nominal speed along the ground, in frame heights per second. */
const PACE: Partial<Record<Subject, number>> = {
  ship: 0.008,
  boat: 0.012,
  car: 0.22,
  people: 0.05,
  birds: 0.08,
};

/** Farther things are smaller: the scale at a depth below the horizon. */
const scaleAt = (depth: number) => 0.55 + 1.5 * depth;

const between = (random: Random, [a, b]: readonly [number, number]) => a + (b - a) * random();

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `n` places across the view's width, in an order and with offsets the seed picks. */
function spread(random: Random, n: number, width: number): number[] {
  if (n === 1) return [(random() - 0.5) * 0.4 * width];
  const slot = (0.9 * width) / n;
  return shuffled(
    random,
    Array.from({ length: n }, (_, i) => -0.45 * width + (i + 0.5) * slot + (random() - 0.5) * 0.3 * slot),
  );
}

/** Every instance of every named subject, placed for the first view. */
export function layOut(
  forms: readonly Form[],
  counts: Partial<Record<Subject, number>>,
  s: Stage,
  speed: number,
): Placed[] {
  const random = seeded(hashOf('layout', s.seed));
  const u = s.unit;
  const has = (f: Form) => forms.includes(f);
  const river = has('river') ? riverOf(s) : undefined;
  const pond = has('pond') ? pondOf(s) : undefined;
  const shores: readonly Form[] = [
    'beach',
    'land',
    'snowfield',
    'river',
    'blocks',
    'trunks',
    'blossoms',
    'dunes',
    'volcano',
    'seabed',
  ];
  const openWater = has('waves') && !shores.some(has);
  const ground = Math.max(
    0,
    ...Object.entries(GROUND_LINE).map(([f, line]) => (has(f as Form) ? line + 0.01 : 0)),
  );
  const placed: Placed[] = [];
  interface Options {
    onRock?: boolean;
    still?: boolean;
    /** For what is not on the ground: its own height and size. */
    foot?: number;
    scale?: number;
  }
  const place = (subject: Subject, x: number, depth: number, facing: 1 | -1, options: Options = {}) => {
    const scale = options.scale ?? scaleAt(depth);
    placed.push({
      subject,
      x,
      foot: options.foot ?? s.horizon + depth * u,
      scale,
      facing,
      look: hashOf(`${subject}:${placed.length}`, s.seed),
      phase: random() * Math.PI * 2,
      speed: options.still ? 0 : facing * (PACE[subject] ?? 0) * u * scale * speed,
      onRock: options.onRock ?? false,
    });
  };
  const side = (): 1 | -1 => (random() < 0.5 ? -1 : 1);
  const many = (subject: Subject) => counts[subject] ?? 0;

  // Buildings, windmills, lighthouses and trees: one slot each across the view, kept off a river
  // or a pond. A windmill stands still but is drawn frame by frame, for its sails turn.
  const slotted = [...STANDING.filter((k) => k !== 'bridge'), 'windmill' as const];
  const standing = slotted.flatMap((k) => Array<Subject>(many(k)).fill(k));
  const slots = spread(random, standing.length, s.width);
  // With hills and no other ground, they stand on the nearest ridge, as far away as it is.
  const hill = has('ridges') && ground === 0 && !river ? ridgeLines(s)[2] : undefined;
  shuffled(random, standing).forEach((subject, i) => {
    const depth = Math.max(ground, between(random, DEPTHS[subject]));
    let x = slots[i]!;
    if (hill) {
      place(subject, x, depth, side(), { foot: hill(x) + 0.004 * u, scale: scaleAt(0.06) });
      return;
    }
    if (river) {
      const foot = s.horizon + depth * u;
      const half = (BOUNDS[subject][2] * scaleAt(depth) + 0.01) * u + river.halfWidth(foot);
      const off = x - river.centre(foot);
      if (Math.abs(off) < half) x = river.centre(foot) + (off < 0 ? -half : half);
    }
    if (pond) x = offPond(pond, x, s.horizon + depth * u, (BOUNDS[subject][2] * scaleAt(depth) + 0.01) * u);
    place(subject, x, depth, side(), { onRock: openWater, still: subject === 'windmill' });
  });
  if (many('bridge') > 0) place('bridge', (random() - 0.5) * 0.1 * s.width, DEPTHS.bridge[0], 1);

  // Walkers: along the ground, in front of a city or forest, on the near side of a road.
  const walkDepth: [number, number] = has('road')
    ? [ROAD[1] + 0.02, ROAD[1] + 0.08]
    : [Math.max(ground, DEPTHS.people[0]), Math.max(ground + 0.04, DEPTHS.people[1])];
  const crowd = many('people');
  const together = side();
  spread(random, crowd, s.width).forEach((x) => {
    const depth = between(random, walkDepth);
    let at = x;
    if (river) {
      const foot = s.horizon + depth * u;
      const half = river.halfWidth(foot) + 0.04 * u;
      const off = at - river.centre(foot);
      if (Math.abs(off) < half) at = river.centre(foot) + (off < 0 ? -half : half);
    }
    // On a pond's bank, its near one: a walker does not walk on the water.
    const foot = pond ? beforePond(pond, at, s.horizon + depth * u, 0.02 * u) : s.horizon + depth * u;
    place('people', at, (foot - s.horizon) / u, crowd > 2 ? side() : together, { onRock: openWater });
  });

  // Cars: on the road, the far lane driving one way and the near lane the other.
  const lanes: [number, 1 | -1][] = [
    [DEPTHS.car[0], side()],
    [DEPTHS.car[1], 1],
  ];
  lanes[1]![1] = lanes[0]![1] === 1 ? -1 : 1;
  spread(random, many('car'), s.width).forEach((x, i) => {
    const [depth, facing] = lanes[(i + (random() < 0.5 ? 0 : 1)) % 2]!;
    place('car', x, depth, facing);
  });

  // Boats and ships: on open water anywhere across the view; on a river, in its middle.
  for (const subject of ['ship', 'boat'] as const) {
    spread(random, many(subject), s.width).forEach((x) => {
      if (river) {
        const depth = between(random, [Math.max(0.16, DEPTHS[subject][0]), 0.3]);
        const foot = s.horizon + depth * u;
        place(subject, river.centre(foot), depth, side(), { still: true });
      } else if (pond) {
        const [px, foot] = onPond(pond, random, 0.5);
        place(subject, px, (foot - s.horizon) / u, side(), { still: true });
      } else place(subject, x, between(random, DEPTHS[subject]), side());
    });
  }

  // Birds: across the sky, one flock flying one way; a bird on its own is nearer, and larger.
  const flight = side();
  const near = many('birds') === 1 ? 2.4 : 1;
  spread(random, many('birds'), s.width).forEach((x) => {
    const foot = Math.max(-0.4 * u, s.horizon - (0.14 + random() * 0.24) * u);
    place('birds', x, 0, flight, { foot, scale: near * (0.8 + random() * 0.4) });
  });
  // Back to front: the farther first, birds in the air over everything.
  const aloft = (p: Placed) => (p.subject === 'birds' ? 1 : 0);
  return placed.sort((a, b) => aloft(a) - aloft(b) || a.foot - b.foot);
}
