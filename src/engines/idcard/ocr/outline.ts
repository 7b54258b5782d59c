/**
 * The card's outline on a reduced photo: of the candidate edges, the four that close a card-shaped
 * quadrilateral (aspect near 85.6:54, opposite sides of similar length, the card on the same
 * side of all four) whose sides are best covered by a step of brightness from the card to what
 * is around it. Lines inside a card (the photo's frame, text, the guilloche) are edge pixels too,
 * but the two sides of them are the same card, not card and table.
 *
 * A scan may hold the card with a margin of a pixel or none, so that a side (or part of one) has
 * no surface beyond it in the picture. There the picture's frame stands in for the edge, and what
 * is measured is that the card reaches it: just inside, the picture is like the card and unlike
 * the surface seen beyond the card's other sides.
 */
import type { Point } from '../warp.js';
import { BRIGHTER_ABOVE, BRIGHTER_BELOW, BRIGHTER_LEFT, BRIGHTER_RIGHT, type EdgeMap } from './edges.js';
import { edgeLines, type EdgeLine } from './edge-lines.js';
import type { Plane } from '../plane.js';
import { sampleGrey } from './grey.js';
import { intersection } from './lines.js';

export interface Outline {
  top: EdgeLine;
  right: EdgeLine;
  bottom: EdgeLine;
  left: EdgeLine;
  corners: [Point, Point, Point, Point];
  /** Mean share of the four sides that is a step from the card to its surroundings, 0–1. */
  support: number;
}

const MIN_SIDE_SUPPORT = 0.45;

/** Smallest brightness step (grey levels) between the card and its surroundings that counts. */
const MIN_STEP = 6;

/** The picture itself within the plane searched (which may have a repeated border around it). */
export interface Picture {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A side nearer the frame than this (pixels of the plane) has no surface beyond it in the picture. */
const FRAME_REACH = 1;

/**
 * Edge pixels are looked for this far (pixels) either side of a candidate line, nearest first;
 * one off the line counts this much less towards how well the line fits. Several lines 0.5°
 * apart cover a side alike within reach, and the one through its pixels is the side.
 */
const NEAREST_FIRST = [0, -1, 1, -2, 2];
const OFF_LINE_COST = 0.2;

/** What was seen along one side of a candidate outline. */
interface SideSamples {
  steps: number;
  /** Samples that are an edge of the expected kind, with a clear step the card's way. */
  hits: number;
  /** The hits, each counting less the further off the line its edge pixel lies. */
  closeness: number;
  /** The card's grey just inside the side where the surface beyond it lies outside the picture. */
  beyond: number[];
  /** Sums of the grey outside and inside the card where both were seen, and how many. */
  outside: number;
  inside: number;
  seen: number;
}

/**
 * The samples of the side p→q (its middle 80%: card corners are rounded) for a card brighter
 * (`sign` 1) or darker (-1) than its surroundings, with edges of `bits`. The card lies to the
 * right of p→q (with y pointing down).
 */
function sideSamples(
  grey: Plane,
  edges: EdgeMap,
  picture: Picture,
  p: Point,
  q: Point,
  bits: number,
  sign: number,
): SideSamples {
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const steps = Math.max(4, Math.floor(length * 0.8));
  // Unit normal towards the card.
  const nx = -(q.y - p.y) / length;
  const ny = (q.x - p.x) / length;
  const side: SideSamples = { steps, hits: 0, closeness: 0, beyond: [], outside: 0, inside: 0, seen: 0 };
  for (let s = 0; s < steps; s++) {
    const t = 0.1 + (0.8 * (s + 0.5)) / steps;
    const x = p.x + (q.x - p.x) * t;
    const y = p.y + (q.y - p.y) * t;
    const into = sampleGrey(grey, x + nx * 3, y + ny * 3);
    // On the frame or past it, the surface is not in the picture; a pixel inside it, the
    // repeated border beyond shows the frame's own pixels, which are the surface.
    if (
      x < picture.left + FRAME_REACH ||
      y < picture.top + FRAME_REACH ||
      x > picture.right - FRAME_REACH ||
      y > picture.bottom - FRAME_REACH
    ) {
      side.beyond.push(into);
      continue;
    }
    const ox = x - nx * 3;
    const oy = y - ny * 3;
    const out = sampleGrey(grey, ox, oy);
    side.inside += into;
    side.outside += out;
    side.seen++;
    if ((into - out) * sign < MIN_STEP) continue;
    // A step against the last few pixels of the picture is a scan's margin: too narrow a strip
    // for the edge map, whose threshold follows the card's own texture, to mark the edge.
    if (ox < picture.left || oy < picture.top || ox > picture.right || oy > picture.bottom) {
      side.hits++;
      side.closeness++;
      continue;
    }
    for (const o of NEAREST_FIRST) {
      const px = Math.floor(x + nx * o);
      const py = Math.floor(y + ny * o);
      if (px < 0 || py < 0 || px >= edges.width || py >= edges.height) continue;
      if (edges.classes[py * edges.width + px]! & bits) {
        side.hits++;
        side.closeness += 1 - OFF_LINE_COST * Math.abs(o);
        break;
      }
    }
  }
  return side;
}

/**
 * The frame of the picture as candidate sides, of both polarities: where a scan's card reaches
 * the frame there is no edge of its own to find.
 */
function frameLines(picture: Picture, vertical: boolean): EdgeLine[] {
  const [nx, ny, near, far] = vertical
    ? [1, 0, picture.left, picture.right]
    : [0, 1, picture.top, picture.bottom];
  return [near, far].flatMap((d) =>
    ([1, -1] as const).map((polarity) => ({ nx, ny, d, polarity, votes: 0, frame: true as const })),
  );
}

/**
 * An edge line that runs along the picture's frame within this many pixels of it from end to end,
 * darker towards the frame, is the frame's own fringe (a blur or a lens darkening the outermost
 * pixels), not a card edge. A close-cut scan's card edge a pixel or two from the frame has the
 * brighter scanner lid beyond it, and is kept.
 */
const FRINGE = 2.5;

function isFringe(line: EdgeLine, picture: Picture): boolean {
  const vertical = Math.abs(line.nx) > Math.abs(line.ny);
  const [from, to] = vertical ? [picture.top, picture.bottom] : [picture.left, picture.right];
  const [near, far] = vertical ? [picture.left, picture.right] : [picture.top, picture.bottom];
  // Where the line crosses the frame's two ends, across it.
  const across = [from, to].map((along) =>
    vertical ? (line.d - line.ny * along) / line.nx : (line.d - line.nx * along) / line.ny,
  );
  const along = (edge: number) => across.every((at) => Math.abs(at - edge) <= FRINGE);
  // Edge lines' normals point right or down: brighter that way is darker towards the near side.
  return (along(near) && line.polarity === 1) || (along(far) && line.polarity === -1);
}

/** The card's width over its height (85.6 × 54 mm), and how far from it a flat view may be. */
const CARD_ASPECT = 85.6 / 54;
const FLAT_ASPECT = 1.05;

/** How much nearer (grey levels) the surface beyond a side must be to the others' than to the card. */
const SURFACE_MARGIN = MIN_STEP / 2;

/** Of all the samples of an outline, at least this share must show the surface beyond the card. */
const MIN_SURFACE_SEEN = 0.3;

/** At most this many sides of an outline may be the frame: the others must show the surface. */
const MAX_FRAME_SIDES = 2;

const length = (p: Point, q: Point) => Math.hypot(q.x - p.x, q.y - p.y);
const within = (ratio: number, low: number, high: number) => ratio >= low && ratio <= high;

/**
 * The share of each side covered: its edge samples, and where the surface lies beyond the
 * picture, the samples at which the card reaches the frame (a clear step the card's way from
 * the surface, and within half the card's own step of the card's grey); with the mean of the
 * shares counted by closeness, how well the outline fits. Undefined when too little of the
 * surface was seen to tell, or when it is not one surface.
 */
function shares(sides: SideSamples[], sign: number): { covered: number[]; fit: number } | undefined {
  let outside = 0;
  let inside = 0;
  let seen = 0;
  let all = 0;
  for (const side of sides) {
    outside += side.outside;
    inside += side.inside;
    seen += side.seen;
    all += side.steps;
  }
  if (seen < MIN_SURFACE_SEEN * all) return undefined;
  const surface = outside / seen;
  const card = inside / seen;
  // One surface lies around the card: beyond each side the picture is nearer what lies beyond
  // the others than the card. Beyond a photo's frame printed on the card lies more card.
  for (const side of sides) {
    const others = seen - side.seen;
    if (side.seen === 0 || others === 0) continue;
    const beyond = side.outside / side.seen;
    if (Math.abs(beyond - (outside - side.outside) / others) + SURFACE_MARGIN >= Math.abs(beyond - card))
      return undefined;
  }
  // Like the card: within half the card's own step from the surface of the card's grey.
  const reaches = (at: number) =>
    (at - surface) * sign >= MIN_STEP && Math.abs(at - card) < Math.abs(card - surface) / 2;
  let fit = 0;
  const covered = sides.map((side) => {
    const reached = side.beyond.filter(reaches).length;
    fit += (side.closeness + reached) / side.steps / sides.length;
    return (side.hits + reached) / side.steps;
  });
  return { covered, fit };
}

/**
 * The best card outline in the edge map, or undefined when no four edges make a card. `picture`
 * is where the picture lies in `grey` (the whole of it unless a border was added around it).
 */
export function findOutline(
  grey: Plane,
  edges: EdgeMap,
  picture: Picture = { left: 0, top: 0, right: grey.width, bottom: grey.height },
): Outline | undefined {
  const { width, height } = edges;
  // A card photographed to be read fills a good part of the frame; smaller card-shaped outlines
  // are things printed on the card (the photo's frame) when the card itself fills the image.
  const shortest = 0.35 * Math.max(width, height);
  const horizontal = [
    ...edgeLines(edges, false, shortest * 0.3).filter((line) => !isFringe(line, picture)),
    ...frameLines(picture, false),
  ];
  const vertical = [
    ...edgeLines(edges, true, (shortest / 1.6) * 0.3).filter((line) => !isFringe(line, picture)),
    ...frameLines(picture, true),
  ];
  let best: Outline | undefined;
  let bestScore = 0;
  const slack = 0.02 * Math.max(width, height);
  const inside = (p: Point) => p.x > -slack && p.y > -slack && p.x < width + slack && p.y < height + slack;
  for (const top of horizontal) {
    for (const bottom of horizontal) {
      // The card lies below its top edge and above its bottom edge, so they face opposite ways.
      if (bottom.polarity === top.polarity || bottom.d <= top.d + shortest / 1.9) continue;
      // With the normal pointing down, a brighter card is brighter below its top edge.
      const brighter = top.polarity === 1;
      for (const left of vertical) {
        if ((left.polarity === 1) !== brighter) continue;
        for (const right of vertical) {
          if (right.polarity === left.polarity || right.d <= left.d + shortest) continue;
          const framed = [top, right, bottom, left].filter((side) => side.frame).length;
          if (framed > MAX_FRAME_SIDES) continue;
          const tl = intersection(top, left);
          const tr = intersection(top, right);
          const br = intersection(bottom, right);
          const bl = intersection(bottom, left);
          if (!tl || !tr || !br || !bl) continue;
          if (![tl, tr, br, bl].every(inside)) continue;
          const topLength = length(tl, tr);
          const bottomLength = length(bl, br);
          const leftLength = length(tl, bl);
          const rightLength = length(tr, br);
          if (!within(topLength / bottomLength, 0.8, 1.25) || !within(leftLength / rightLength, 0.8, 1.25))
            continue;
          const aspect = (topLength + bottomLength) / (leftLength + rightLength);
          if (!within(aspect, 1.3, 1.95)) continue;
          // The frame stands in for a side only in a scan or a close crop, which see the card flat.
          if (framed > 0 && !within(aspect / CARD_ASPECT, 1 / FLAT_ASPECT, FLAT_ASPECT)) continue;
          const sign = brighter ? 1 : -1;
          // Clockwise, so the card is always to the right of each side.
          const sides: SideSamples[] = [];
          for (const [p, q, bits] of [
            [tl, tr, brighter ? BRIGHTER_BELOW : BRIGHTER_ABOVE],
            [tr, br, brighter ? BRIGHTER_LEFT : BRIGHTER_RIGHT],
            [br, bl, brighter ? BRIGHTER_ABOVE : BRIGHTER_BELOW],
            [bl, tl, brighter ? BRIGHTER_RIGHT : BRIGHTER_LEFT],
          ] as const) {
            const side = sideSamples(grey, edges, picture, p, q, bits, sign);
            // Even were every sample beyond the picture to count, this side would fall short.
            if (side.hits + side.beyond.length < MIN_SIDE_SUPPORT * side.steps) break;
            sides.push(side);
          }
          if (sides.length < 4) continue;
          const seen = shares(sides, sign);
          if (!seen || Math.min(...seen.covered) < MIN_SIDE_SUPPORT) continue;
          const support = seen.covered.reduce((a, b) => a + b, 0) / 4;
          // Among well-covered outlines prefer the larger: the card, not a frame printed on it.
          const area = ((topLength + bottomLength) * (leftLength + rightLength)) / (4 * width * height);
          const score = seen.fit + 0.5 * Math.sqrt(area);
          if (score > bestScore) {
            bestScore = score;
            best = { top, right, bottom, left, corners: [tl, tr, br, bl], support };
          }
        }
      }
    }
  }
  return best;
}
