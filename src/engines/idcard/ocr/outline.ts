/**
 * The card's outline on a reduced photo: of the candidate edges, the four that close a card-shaped
 * quadrilateral (aspect near 85.6:54, opposite sides of similar length, the card on the same
 * side of all four) whose sides are best covered by a step of brightness from the card to what
 * is around it. Lines inside a card (the photo's frame, text, the guilloche) are edge pixels too,
 * but the two sides of them are the same card, not card and table.
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

/**
 * Share of the side p→q (its middle 80%: card corners are rounded) that is an edge of `bits`
 * with the card side brighter (`sign` 1) or darker (-1) than the outside by a clear step. The
 * card lies to the right of p→q (with y pointing down).
 */
function coverage(grey: Plane, edges: EdgeMap, p: Point, q: Point, bits: number, sign: number): number {
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const steps = Math.max(4, Math.floor(length * 0.8));
  // Unit normal towards the card.
  const nx = -(q.y - p.y) / length;
  const ny = (q.x - p.x) / length;
  let hits = 0;
  for (let s = 0; s < steps; s++) {
    const t = 0.1 + (0.8 * (s + 0.5)) / steps;
    const x = p.x + (q.x - p.x) * t;
    const y = p.y + (q.y - p.y) * t;
    const step = (sampleGrey(grey, x + nx * 3, y + ny * 3) - sampleGrey(grey, x - nx * 3, y - ny * 3)) * sign;
    if (step < MIN_STEP) continue;
    for (let o = -2; o <= 2; o++) {
      const px = Math.floor(x + nx * o);
      const py = Math.floor(y + ny * o);
      if (px < 0 || py < 0 || px >= edges.width || py >= edges.height) continue;
      if (edges.classes[py * edges.width + px]! & bits) {
        hits++;
        break;
      }
    }
  }
  return hits / steps;
}

const length = (p: Point, q: Point) => Math.hypot(q.x - p.x, q.y - p.y);
const within = (ratio: number, low: number, high: number) => ratio >= low && ratio <= high;

/** The best card outline in the edge map, or undefined when no four edges make a card. */
export function findOutline(grey: Plane, edges: EdgeMap): Outline | undefined {
  const { width, height } = edges;
  // A card photographed to be read fills a good part of the frame; smaller card-shaped outlines
  // are things printed on the card (the photo's frame) when the card itself fills the image.
  const shortest = 0.35 * Math.max(width, height);
  const horizontal = edgeLines(edges, false, shortest * 0.3);
  const vertical = edgeLines(edges, true, (shortest / 1.6) * 0.3);
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
          if (!within((topLength + bottomLength) / (leftLength + rightLength), 1.3, 1.95)) continue;
          const sign = brighter ? 1 : -1;
          // Clockwise, so the card is always to the right of each side.
          const sides = [
            coverage(grey, edges, tl, tr, brighter ? BRIGHTER_BELOW : BRIGHTER_ABOVE, sign),
            coverage(grey, edges, tr, br, brighter ? BRIGHTER_LEFT : BRIGHTER_RIGHT, sign),
            coverage(grey, edges, br, bl, brighter ? BRIGHTER_ABOVE : BRIGHTER_BELOW, sign),
            coverage(grey, edges, bl, tl, brighter ? BRIGHTER_RIGHT : BRIGHTER_LEFT, sign),
          ];
          if (Math.min(...sides) < MIN_SIDE_SUPPORT) continue;
          const support = sides.reduce((a, b) => a + b, 0) / 4;
          // Among well-covered outlines prefer the larger: the card, not a frame printed on it.
          const area = ((topLength + bottomLength) * (leftLength + rightLength)) / (4 * width * height);
          const score = support + 0.5 * Math.sqrt(area);
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
