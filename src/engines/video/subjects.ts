/**
 * The things a prompt can name, each a silhouette a viewer knows at a glance: a striped
 * lighthouse with its lit lantern, a house with a pitched roof, a windmill with turning sails, a
 * castle with towers and battlements, a suspension bridge, a round-crowned tree, a sailing boat,
 * a ship with its funnel, a car on wheels, a walking figure, a bird with its wings up or down.
 * Each is drawn at a place (`x`, and `foot`, the world y it stands or floats on) and a scale,
 * facing left or right; `look` varies its colours and `phase` its stride, wingbeat or the turn
 * of its sails.
 */
import type { Rgb } from '../paint/index.js';
import { seeded } from '../random.js';
import { disc, fillPolygon, mixRgb, shade, stroke, type Point } from './draw.js';
import { extentOf, type Layer } from './layer.js';
import { lit, type Stage } from './stage.js';
import type { Subject } from './vocabulary.js';

export interface Pose {
  x: number;
  foot: number;
  /** Size as a share of the subject's nominal size (about 1 near the viewer). */
  scale: number;
  facing: 1 | -1;
  /** Seeds the subject's own colours. */
  look: number;
  /** Radians through a stride or a wingbeat. */
  phase: number;
}

/** Glowing things (lanterns, lit windows, headlights) show after dusk. */
const evening = (s: Stage) => s.time === 'dusk' || s.time === 'night';

/**
 * A polygon given as x, y, x, y … in the subject's own units (frame heights at scale 1, x toward
 * where it faces).
 */
function shape(layer: Layer, s: Stage, p: Pose, xy: readonly number[], rgb: Rgb): void {
  const u = s.unit * p.scale;
  const points: Point[] = [];
  for (let i = 0; i + 1 < xy.length; i += 2)
    points.push([p.x + p.facing * xy[i]! * u, p.foot + xy[i + 1]! * u]);
  fillPolygon(layer, points, rgb);
}

/** A rectangle in the subject's own units. */
function box(
  layer: Layer,
  s: Stage,
  p: Pose,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  rgb: Rgb,
): void {
  shape(layer, s, p, [x0, y0, x1, y0, x1, y1, x0, y1], rgb);
}

function round(layer: Layer, s: Stage, p: Pose, x: number, y: number, r: number, rgb: Rgb, alpha = 1): void {
  const u = s.unit * p.scale;
  disc(layer, p.x + p.facing * x * u, p.foot + y * u, r * u, rgb, alpha, alpha < 1 ? 1 : 0);
}

function line(layer: Layer, s: Stage, p: Pose, from: Point, to: Point, width: number, rgb: Rgb): void {
  const u = s.unit * p.scale;
  const at = ([x, y]: Point): Point => [p.x + p.facing * x * u, p.foot + y * u];
  stroke(layer, at(from), at(to), width * u, rgb);
}

function lighthouse(layer: Layer, s: Stage, p: Pose): void {
  const tower = 0.4;
  const [base, top] = [0.034, 0.021];
  const bands = 6;
  for (let b = 0; b < bands; b += 1) {
    const [y0, y1] = [(-tower * b) / bands, (-tower * (b + 1)) / bands];
    const [w0, w1] = [base + ((top - base) * b) / bands, base + ((top - base) * (b + 1)) / bands];
    const color: Rgb = b % 2 === 0 ? [238, 236, 230] : [186, 44, 40];
    shape(layer, s, p, [-w0, y0, w0, y0, w1, y1, -w1, y1], lit(s, color));
  }
  box(layer, s, p, -0.007, -0.032, 0.007, 0, lit(s, [62, 50, 44]));
  const gallery = -tower - 0.012;
  box(layer, s, p, -top * 1.5, gallery, top * 1.5, -tower, lit(s, [44, 44, 50]));
  const lamp = gallery - 0.045;
  if (evening(s)) round(layer, s, p, 0, (lamp + gallery) / 2, 0.05, [255, 226, 150], 0.4);
  box(layer, s, p, -top * 0.8, lamp, top * 0.8, gallery, [255, 238, 168]);
  shape(layer, s, p, [-top * 1.1, lamp, top * 1.1, lamp, 0, lamp - 0.035], lit(s, [70, 40, 40]));
}

function house(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  const walls: Rgb[] = [
    [228, 216, 190],
    [204, 122, 92],
    [238, 238, 232],
    [176, 154, 122],
  ];
  const wall = lit(s, walls[Math.floor(random() * walls.length)]!);
  box(layer, s, p, 0.022, -0.13, 0.038, -0.08, lit(s, [110, 70, 60]));
  box(layer, s, p, -0.06, -0.07, 0.06, 0, wall);
  shape(layer, s, p, [-0.074, -0.068, 0.074, -0.068, 0, -0.125], lit(s, [132, 52, 40]));
  box(layer, s, p, -0.012, -0.042, 0.012, 0, lit(s, [82, 56, 40]));
  const pane: Rgb = evening(s) ? [255, 214, 130] : lit(s, [150, 190, 220]);
  for (const x of [-0.036, 0.036]) box(layer, s, p, x - 0.01, -0.054, x + 0.01, -0.034, pane);
}

/** Seconds a windmill's sails take for a quarter turn, after which they look the same again. */
export const SAIL_QUARTER = 3;

/**
 * A tower mill: a tapering white or brick tower with a door and a window, a dark cap, and four
 * latticed sails on a hub. `phase` turns the sails: a full cycle of it is a quarter turn.
 */
function windmill(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  const walls: Rgb[] = [
    [236, 232, 222],
    [178, 88, 62],
    [214, 200, 172],
  ];
  const wall = lit(s, walls[Math.floor(random() * walls.length)]!);
  const wood = lit(s, [92, 62, 44]);
  shape(layer, s, p, [-0.05, 0, 0.05, 0, 0.032, -0.2, -0.032, -0.2], wall);
  // The side away from the light, a little darker.
  shape(layer, s, p, [0.018, 0, 0.05, 0, 0.032, -0.2, 0.012, -0.2], shade(wall, 0.86));
  shape(layer, s, p, [-0.042, -0.198, 0.042, -0.198, 0.026, -0.226, -0.026, -0.226], wood);
  round(layer, s, p, 0, -0.226, 0.026, wood);
  box(layer, s, p, -0.011, -0.036, 0.011, 0, shade(wood, 0.8));
  round(layer, s, p, 0, -0.036, 0.011, shade(wood, 0.8));
  const pane: Rgb = evening(s) ? [255, 214, 130] : lit(s, [70, 80, 96]);
  box(layer, s, p, -0.008, -0.13, 0.008, -0.11, pane);
  const hub: Point = [-0.012, -0.214];
  const cloth = lit(s, [240, 234, 216]);
  const frame = lit(s, [110, 84, 62]);
  const turn = p.phase / 4;
  for (let k = 0; k < 4; k += 1) {
    const a = turn + (k * Math.PI) / 2;
    const [ax, ay, nx, ny] = [Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a)];
    const at = (along: number, side: number): [number, number] => [
      hub[0] + ax * along + nx * side,
      hub[1] + ay * along + ny * side,
    ];
    const [r0, r1, w] = [0.03, 0.14, 0.03];
    shape(layer, s, p, [...at(r0, 0), ...at(r1, 0), ...at(r1, w), ...at(r0, w)], cloth);
    // The lattice the cloth is stretched on.
    for (let r = r0; r <= r1 + 1e-9; r += (r1 - r0) / 5) line(layer, s, p, at(r, 0), at(r, w), 0.002, frame);
    line(layer, s, p, at(r0, w), at(r1, w), 0.002, frame);
    line(layer, s, p, hub, at(r1 + 0.006, 0), 0.005, frame);
  }
  round(layer, s, p, hub[0], hub[1], 0.008, shade(wood, 0.7));
}

function castle(layer: Layer, s: Stage, p: Pose): void {
  const stone = lit(s, mixRgb([152, 146, 138], s.palette.colors[2]!, 0.2));
  const dark: Rgb = lit(s, [44, 38, 34]);
  const roof = lit(s, [70, 78, 128]);
  const battlements = (x0: number, x1: number, top: number) => {
    for (let x = x0; x + 0.012 <= x1 + 1e-9; x += 0.024)
      box(layer, s, p, x, top - 0.014, x + 0.012, top, stone);
  };
  box(layer, s, p, -0.17, -0.12, 0.17, 0, stone);
  battlements(-0.17, 0.17, -0.12);
  box(layer, s, p, -0.06, -0.24, 0.06, 0, shade(stone, 0.92));
  battlements(-0.06, 0.06, -0.24);
  for (const x of [-0.17, 0.17]) {
    box(layer, s, p, x - 0.036, -0.22, x + 0.036, 0, shade(stone, 1.06));
    shape(layer, s, p, [x - 0.046, -0.22, x + 0.046, -0.22, x, -0.3], roof);
    box(layer, s, p, x - 0.005, -0.18, x + 0.005, -0.155, evening(s) ? [255, 210, 130] : dark);
  }
  box(layer, s, p, -0.026, -0.05, 0.026, 0, dark);
  round(layer, s, p, 0, -0.05, 0.026, dark);
  box(layer, s, p, -0.008, -0.2, 0.008, -0.17, evening(s) ? [255, 210, 130] : dark);
  line(layer, s, p, [0, -0.254], [0, -0.31], 0.004, dark);
  shape(layer, s, p, [0.002, -0.31, 0.05, -0.297, 0.002, -0.284], lit(s, s.palette.colors[0]!));
}

/** A suspension bridge: two towers, cables sagging between them, a deck across the whole view. */
function bridge(layer: Layer, s: Stage, p: Pose): void {
  const u = s.unit * p.scale;
  const steel = lit(s, [180, 66, 44]);
  const [left, , right] = extentOf(layer);
  const deck = -0.09;
  box(layer, s, p, (left - p.x) / u, deck - 0.007, (right - p.x) / u, deck + 0.007, shade(steel, 0.8));
  const half = (0.36 * s.width) / u;
  const top = -0.34;
  const low = deck - 0.012;
  // Sag between the towers, and the side spans falling from them to the deck.
  const cable = (x: number) => {
    const t = Math.abs(x) / half;
    if (t <= 1) return low - (low - top) * t * t;
    return t < 1.8 ? top + (low - top) * (1 - (1.8 - t) / 0.8) ** 0.8 : undefined;
  };
  const step = 0.006;
  for (let x = -1.8 * half; x < 1.8 * half; x += step) {
    const [a, b] = [cable(x), cable(x + step)];
    if (a !== undefined && b !== undefined) line(layer, s, p, [x, a], [x + step, b], 0.005, steel);
  }
  for (let x = -1.8 * half + 0.03; x < 1.8 * half; x += 0.03) {
    const y = cable(x);
    if (y !== undefined && y < deck - 0.01) line(layer, s, p, [x, y], [x, deck], 0.0025, steel);
  }
  for (const x of [-half, half]) {
    for (const side of [-0.013, 0.013])
      box(layer, s, p, x + side - 0.006, top - 0.01, x + side + 0.006, 0, steel);
    for (const y of [top + 0.02, deck - 0.08, deck - 0.02])
      box(layer, s, p, x - 0.019, y - 0.006, x + 0.019, y + 0.006, steel);
  }
}

function tree(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  shape(layer, s, p, [-0.01, 0, 0.01, 0, 0.006, -0.13, -0.006, -0.13], lit(s, [92, 64, 42]));
  const leaves = lit(s, mixRgb(s.palette.colors[1]!, [72, 130, 62], 0.65));
  for (let k = 0; k < 7; k += 1) {
    const angle = (k / 7) * Math.PI * 2 + random();
    const reach = k === 0 ? 0 : 0.035 + random() * 0.02;
    round(
      layer,
      s,
      p,
      Math.cos(angle) * reach,
      -0.18 + Math.sin(angle) * reach * 0.8,
      0.045 + random() * 0.018,
      shade(leaves, 0.82 + random() * 0.3),
    );
  }
}

function boat(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  const hulls: Rgb[] = [
    [230, 226, 214],
    [166, 72, 46],
    [54, 86, 130],
  ];
  shape(
    layer,
    s,
    p,
    [-0.05, -0.024, 0.064, -0.03, 0.036, 0.004, -0.04, 0.004],
    lit(s, hulls[Math.floor(random() * hulls.length)]!),
  );
  line(layer, s, p, [0, -0.026], [0, -0.118], 0.004, lit(s, [70, 56, 46]));
  const sail = lit(s, [246, 243, 232]);
  shape(layer, s, p, [0.004, -0.114, 0.004, -0.034, 0.052, -0.034], sail);
  shape(layer, s, p, [-0.004, -0.1, -0.004, -0.034, -0.038, -0.034], shade(sail, 0.9));
}

function ship(layer: Layer, s: Stage, p: Pose): void {
  const white = lit(s, [234, 234, 228]);
  const pane: Rgb = evening(s) ? [255, 216, 140] : lit(s, [60, 70, 84]);
  box(layer, s, p, -0.17, -0.085, -0.03, -0.04, white);
  box(layer, s, p, -0.15, -0.115, -0.07, -0.085, white);
  for (let x = -0.16; x < -0.04; x += 0.02) box(layer, s, p, x, -0.072, x + 0.01, -0.062, pane);
  box(layer, s, p, -0.125, -0.165, -0.095, -0.115, lit(s, [176, 42, 32]));
  box(layer, s, p, -0.125, -0.175, -0.095, -0.165, lit(s, [30, 30, 34]));
  line(layer, s, p, [0.15, -0.05], [0.15, -0.14], 0.004, lit(s, [60, 60, 66]));
  shape(layer, s, p, [-0.2, -0.045, 0.232, -0.062, 0.19, 0.005, -0.19, 0.005], lit(s, [40, 46, 58]));
  shape(layer, s, p, [-0.19, -0.006, 0.2, -0.006, 0.19, 0.005, -0.19, 0.005], lit(s, [150, 42, 36]));
}

/** A colour's hue, made as saturated and as deep as a car's paint. */
function carPaint([r, g, b]: Rgb): Rgb {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max - min < 1) return [200, 200, 196];
  const [v, chroma] = [190, 190 * 0.8];
  return [r, g, b].map((c) => v - chroma * ((max - c) / (max - min))) as unknown as Rgb;
}

function car(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  const paints: Rgb[] = [
    [196, 40, 36],
    [40, 84, 160],
    [232, 232, 228],
    [34, 34, 38],
    [236, 190, 40],
  ];
  // The colour the prompt names, as a car's deep glossy paint, else one the seed picks.
  const body = lit(s, s.named ? carPaint(s.named) : paints[Math.floor(random() * paints.length)]!);
  shape(layer, s, p, [-0.05, -0.038, -0.034, -0.066, 0.028, -0.066, 0.05, -0.038], body);
  shape(layer, s, p, [-0.043, -0.04, -0.03, -0.061, 0.024, -0.061, 0.042, -0.04], lit(s, [120, 148, 168]));
  line(layer, s, p, [-0.004, -0.061], [-0.004, -0.04], 0.004, body);
  shape(layer, s, p, [-0.08, -0.012, -0.08, -0.038, 0.078, -0.038, 0.083, -0.024, 0.08, -0.012], body);
  for (const x of [-0.05, 0.05]) {
    round(layer, s, p, x, -0.014, 0.014, [24, 24, 28]);
    round(layer, s, p, x, -0.014, 0.006, lit(s, [150, 150, 156]));
  }
  if (evening(s)) round(layer, s, p, 0.082, -0.028, 0.03, [255, 236, 190], 0.35);
  round(layer, s, p, 0.078, -0.028, 0.005, [255, 240, 200]);
  round(layer, s, p, -0.078, -0.028, 0.004, [220, 30, 30]);
}

/** A walking figure: legs and arms swing opposite each other with `phase`. */
function person(layer: Layer, s: Stage, p: Pose): void {
  const random = seeded(p.look);
  const shirts: Rgb[] = [
    [196, 60, 52],
    [52, 92, 160],
    [224, 196, 80],
    [70, 130, 90],
    [230, 230, 226],
    [120, 80, 150],
  ];
  const skins: Rgb[] = [
    [236, 196, 164],
    [196, 146, 108],
    [140, 96, 66],
    [92, 62, 44],
  ];
  const shirt = lit(s, shirts[Math.floor(random() * shirts.length)]!);
  const skin = lit(s, skins[Math.floor(random() * skins.length)]!);
  const trousers = lit(s, [48, 50, 62]);
  const swing = 0.4 * Math.sin(p.phase);
  const hip: Point = [0, -0.06];
  const shoulder: Point = [0, -0.1];
  const limb = (from: Point, length: number, angle: number): Point => [
    from[0] + Math.sin(angle) * length,
    from[1] + Math.cos(angle) * length,
  ];
  line(layer, s, p, hip, limb(hip, 0.06, -swing), 0.011, shade(trousers, 0.8));
  line(layer, s, p, shoulder, limb(shoulder, 0.046, swing), 0.008, shade(shirt, 0.8));
  shape(layer, s, p, [-0.013, -0.104, 0.013, -0.104, 0.011, -0.058, -0.011, -0.058], shirt);
  line(layer, s, p, hip, limb(hip, 0.06, swing), 0.011, trousers);
  line(layer, s, p, shoulder, limb(shoulder, 0.046, -swing), 0.008, shirt);
  round(layer, s, p, 0, -0.118, 0.011, skin);
}

/** A bird seen from the side: a small body and two wings, up or down with `phase`. */
function bird(layer: Layer, s: Stage, p: Pose): void {
  const ink = lit(s, [36, 36, 44]);
  const lift = 0.016 * Math.sin(p.phase);
  for (const side of [-1, 1]) {
    shape(
      layer,
      s,
      p,
      [0, -0.003, side * 0.012, -0.008 - lift * 0.5, side * 0.03, -lift, side * 0.014, 0.004, 0, 0.004],
      ink,
    );
  }
  round(layer, s, p, 0, 0, 0.0045, ink);
}

export const SUBJECT_PAINTERS: Record<Subject, (layer: Layer, s: Stage, p: Pose) => void> = {
  castle,
  house,
  windmill,
  lighthouse,
  bridge,
  tree,
  ship,
  boat,
  car,
  people: person,
  birds: bird,
};

/** The box each subject fits in, in its own units: [left, top, right, bottom]. */
export const BOUNDS: Record<Subject, readonly [number, number, number, number]> = {
  castle: [-0.22, -0.32, 0.22, 0.01],
  house: [-0.08, -0.14, 0.08, 0.01],
  windmill: [-0.19, -0.38, 0.17, 0.01],
  lighthouse: [-0.06, -0.5, 0.06, 0.01],
  bridge: [-1, -0.36, 1, 0.01],
  tree: [-0.11, -0.26, 0.11, 0.01],
  ship: [-0.21, -0.18, 0.24, 0.01],
  boat: [-0.07, -0.12, 0.07, 0.01],
  car: [-0.1, -0.07, 0.12, 0.01],
  people: [-0.06, -0.135, 0.06, 0.01],
  birds: [-0.035, -0.024, 0.035, 0.02],
};

/** A low mound of rock, for a subject that stands where there is only water. */
export function rock(layer: Layer, s: Stage, p: Pose, half: number): void {
  shape(
    layer,
    s,
    p,
    [-half * 1.4, 0.03, -half, 0.002, -half * 0.3, -0.004, half, 0, half * 1.4, 0.03],
    lit(s, [90, 82, 76]),
  );
}

/**
 * A rocky islet for a building that stands where there is only water (a lighthouse at sea): a
 * crag several times the building's width whose top it stands on, a shadowed flank, boulders at
 * its foot and a line of surf where it meets the sea. Its outline varies with the pose's look.
 */
export function islet(layer: Layer, s: Stage, p: Pose, half: number): void {
  const random = seeded(p.look ^ 0x5eed);
  const w = half * (5 + random() * 1.5);
  // The sea meets the rock this far below the building's foot.
  const sea = 0.1;
  const jag = () => (random() - 0.5) * 0.02;
  const crag = [
    -w,
    sea,
    -w * 0.8,
    sea * 0.55 + jag(),
    -w * 0.5,
    sea * 0.2 + jag(),
    -half * 1.4,
    -0.004,
    -half * 0.4,
    -0.012,
    half * 0.9,
    -0.008,
    w * 0.4,
    sea * 0.25 + jag(),
    w * 0.75,
    sea * 0.5 + jag(),
    w * 1.05,
    sea,
  ];
  shape(layer, s, p, crag, lit(s, [112, 104, 94]));
  // The flank away from the light, darker, and the rock's wet foot.
  const flank = [
    half * 0.6,
    -0.004,
    w * 0.4,
    sea * 0.25,
    w * 0.75,
    sea * 0.5,
    w * 1.05,
    sea,
    half * 0.2,
    sea,
  ];
  shape(layer, s, p, flank, lit(s, [72, 66, 62]));
  shape(
    layer,
    s,
    p,
    [-w, sea, -w * 0.85, sea * 0.8, w * 0.9, sea * 0.82, w * 1.05, sea],
    lit(s, [50, 46, 44]),
  );
  for (let b = 0; b < 3; b += 1) {
    const x = (random() - 0.5) * w * 1.9;
    const r = half * (0.6 + random() * 0.7);
    shape(
      layer,
      s,
      p,
      [x - r, sea, x - r * 0.6, sea - r * 0.7, x + r * 0.5, sea - r * 0.8, x + r, sea],
      lit(s, [88, 82, 76]),
    );
  }
  // Surf where the rock meets the water.
  box(layer, s, p, -w * 1.04, sea - 0.003, w * 1.09, sea + 0.006, lit(s, [226, 232, 236]));
}
