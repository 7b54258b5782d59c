/**
 * Finding the card as the plain region in a busy picture: where the card is no brighter than what
 * it lies on (a printed sheet, a patterned cloth) its outline is no step of brightness, but its
 * ground is plain where the surface is not. The largest plain region that lies wholly inside the
 * picture is taken, its convex hull (the text and the photo inside it are not plain, the card's
 * margins around them are) bounded by the smallest rectangle, and each side of that rectangle
 * fitted again to the hull points along it, so that a card seen at a slant is a quadrilateral.
 */
import type { Canvas } from '../../canvas.js';
import type { Plane } from '../plane.js';
import type { Point, Quad } from '../warp.js';
import { greyOf } from './grey.js';

/** Long side of the reduced copy searched, as for the outline. */
const SEARCH_SIZE = 480;
/**
 * Each side is set this share of the card's height further out: text printed close to an edge
 * (the number near the bottom right) leaves the ground there too narrow to be plain.
 */
const SLACK = 0.05;
/**
 * A region at least this share of the largest, within NEAR of the largest's short side of the
 * card's hull, is part of the card (parted from the rest by a shadow's edge or the photo's frame).
 */
const MIN_PART = 0.02;
const NEAR = 0.12;
/** Reduced pixels either side over which plainness is measured. */
const RADIUS = 4;
/** A window is plain when its grey varies by less than this (standard deviation, grey levels). */
const PLAIN_STD = 4;
/** The card's width over its height, within what a slanted view allows. */
const ASPECTS = [1.3, 1.95] as const;
/** The region must cover at least this share of the picture to be a card photographed to be read. */
const MIN_AREA = 0.08;
/** The hull is thinned to this many points before its largest inscribed quadrilateral is sought. */
const HULL_POINTS = 64;

/** Per pixel, whether the (2·RADIUS+1)² window around it is plain; by summed-area tables. */
export function plainMask(grey: Plane): Uint8Array {
  const { width, height, data } = grey;
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      const at = (y + 1) * stride + x + 1;
      sums[at] = v + sums[at - 1]! + sums[at - stride]! - sums[at - stride - 1]!;
      squares[at] = v * v + squares[at - 1]! + squares[at - stride]! - squares[at - stride - 1]!;
    }
  const box = (table: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    table[y1 * stride + x1]! - table[y0 * stride + x1]! - table[y1 * stride + x0]! + table[y0 * stride + x0]!;
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [x0, y0] = [Math.max(0, x - RADIUS), Math.max(0, y - RADIUS)];
      const [x1, y1] = [Math.min(width, x + RADIUS + 1), Math.min(height, y + RADIUS + 1)];
      const n = (x1 - x0) * (y1 - y0);
      const mean = box(sums, x0, y0, x1, y1) / n;
      const variance = box(squares, x0, y0, x1, y1) / n - mean * mean;
      mask[y * width + x] = variance < PLAIN_STD * PLAIN_STD ? 1 : 0;
    }
  return mask;
}

/** Pixels this near the frame count as reaching it: a blur or lens darkens the outermost few. */
const FRINGE = RADIUS + 2;
/** A region reaching the frame whose hull covers more than this share of the picture is the surface. */
const SURFACE_COVER = 0.8;

/**
 * The 4-connected plain regions, largest first, less the plain surface around the card (which
 * reaches the frame and surrounds the card). A card may itself run up to the frame.
 */
export function cardRegions(mask: Uint8Array, width: number, height: number): Point[][] {
  const seen = new Uint8Array(mask.length);
  const regions: Point[][] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const region: Point[] = [];
    let framed = false;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      region.push({ x, y });
      if (x <= FRINGE || y <= FRINGE || x >= width - 1 - FRINGE || y >= height - 1 - FRINGE) framed = true;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width])
        if (q >= 0 && q < mask.length && mask[q] && !seen[q]) {
          seen[q] = 1;
          stack.push(q);
        }
    }
    if (!framed || hullArea(hullOf(region)) <= SURFACE_COVER * width * height) regions.push(region);
  }
  return regions.sort((a, b) => b.length - a.length);
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** The convex hull, counter-clockwise (Andrew's monotone chain). */
function hullOf(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  const chain = (from: readonly Point[]) => {
    const out: Point[] = [];
    for (const p of from) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...chain(sorted), ...chain([...sorted].reverse())];
}

function hullArea(hull: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < hull.length; i++)
    twice += cross({ x: 0, y: 0 }, hull[i]!, hull[(i + 1) % hull.length]!);
  return Math.abs(twice) / 2;
}

/** How far `p` lies outside the convex polygon `hull` (counter-clockwise, y down); ≤ 0 inside. */
function outside(hull: readonly Point[], p: Point): number {
  let worst = -Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length > 0) worst = Math.max(worst, -cross(a, b, p) / length);
  }
  return worst;
}

/**
 * The card's plain ground: the largest region, and the regions beside it that a printed edge
 * parts from it (the photo's plain backdrop behind its frame), while the whole keeps a card's
 * proportions.
 */
function cardGround(regions: readonly Point[][]): Point[] | undefined {
  const [largest, ...rest] = regions;
  if (!largest) return undefined;
  let hull = hullOf(largest);
  const first = smallestRectangle(hull);
  const near = NEAR * Math.min(first.u1 - first.u0, first.v1 - first.v0);
  const parts = rest.filter((region) => region.length >= MIN_PART * largest.length).map(hullOf);
  // Until no part joins: one that joins can bring the next within reach.
  for (let joined = true; joined;) {
    joined = false;
    for (const [i, part] of parts.entries()) {
      if (!part.some((p) => outside(hull, p) <= near)) continue;
      const merged = hullOf([...hull, ...part]);
      const box = smallestRectangle(merged);
      const [long, short] = [
        Math.max(box.u1 - box.u0, box.v1 - box.v0),
        Math.min(box.u1 - box.u0, box.v1 - box.v0),
      ];
      if (long / short > ASPECTS[1]) continue;
      hull = merged;
      parts.splice(i, 1);
      joined = true;
      break;
    }
  }
  return hull;
}

/** The smallest rectangle around the hull: one of its sides lies along a hull edge. */
function smallestRectangle(hull: readonly Point[]) {
  let best = { area: Infinity, angle: 0, u0: 0, u1: 0, v0: 0, v1: 0 };
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const angle = Math.atan2(b.y - a.y, b.x - a.x);
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    let [u0, u1, v0, v1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const p of hull) {
      const u = p.x * c + p.y * s;
      const v = -p.x * s + p.y * c;
      [u0, u1, v0, v1] = [Math.min(u0, u), Math.max(u1, u), Math.min(v0, v), Math.max(v1, v)];
    }
    const area = (u1 - u0) * (v1 - v0);
    if (area < best.area) best = { area, angle, u0, u1, v0, v1 };
  }
  return best;
}

/** Of the hull's points (at most HULL_POINTS of them, evenly taken), the four that span the largest area. */
function largestQuadrilateral(hull: readonly Point[]): Point[] {
  const step = Math.max(1, hull.length / HULL_POINTS);
  const points: Point[] = [];
  for (let k = 0; k < hull.length; k += step) points.push(hull[Math.floor(k)]!);
  const n = points.length;
  const area = (a: Point, b: Point, c: Point) => Math.abs(cross(a, b, c)) / 2;
  let best = { area: 0, corners: points.slice(0, 4) };
  for (let i = 0; i < n; i++)
    for (let k = i + 2; k < n; k++) {
      const [a, c] = [points[i]!, points[k]!];
      let left = 0;
      let right = 0;
      let j = -1;
      let l = -1;
      for (let m = i + 1; m < k; m++)
        if (area(a, points[m]!, c) > left) [left, j] = [area(a, points[m]!, c), m];
      for (let m = k + 1; m < n + i; m++) {
        const q = points[m % n]!;
        if (area(a, q, c) > right) [right, l] = [area(a, q, c), m % n];
      }
      if (j >= 0 && l >= 0 && left + right > best.area)
        best = { area: left + right, corners: [a, points[j]!, c, points[l]!] };
    }
  return best.corners;
}

/** Corners in order top-left, top-right, bottom-right, bottom-left: the longer sides are top and bottom. */
function ordered(corners: readonly Point[]): Quad {
  const side = (i: number) =>
    Math.hypot(corners[(i + 1) % 4]!.x - corners[i]!.x, corners[(i + 1) % 4]!.y - corners[i]!.y);
  // The two sides starting at 0 and 2 or those at 1 and 3, whichever pair is the longer, run along the card.
  const start = side(0) + side(2) >= side(1) + side(3) ? 0 : 1;
  const runs = [start, start + 2].map((i) => [corners[i % 4]!, corners[(i + 1) % 4]!] as const);
  const meanY = ([p, q]: readonly [Point, Point]) => (p.y + q.y) / 2;
  const [top, bottom] = meanY(runs[0]!) <= meanY(runs[1]!) ? [runs[0]!, runs[1]!] : [runs[1]!, runs[0]!];
  const [tl, tr] = top[0].x <= top[1].x ? top : [top[1], top[0]];
  const [bl, br] = bottom[0].x <= bottom[1].x ? bottom : [bottom[1], bottom[0]];
  return [tl, tr, br, bl];
}

/** The card's corners (top-left, top-right, bottom-right, bottom-left) in `image`, or null. */
export function locatePlainCard(image: Canvas): Quad | null {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / SEARCH_SIZE));
  const grey = greyOf(image, factor);
  const hull = cardGround(cardRegions(plainMask(grey), grey.width, grey.height));
  if (!hull || hull.length < 4) return null;
  const corners = ordered(largestQuadrilateral(hull));
  const [tl, tr, br, bl] = corners;
  const width = (Math.hypot(tr.x - tl.x, tr.y - tl.y) + Math.hypot(br.x - bl.x, br.y - bl.y)) / 2;
  const height = (Math.hypot(bl.x - tl.x, bl.y - tl.y) + Math.hypot(br.x - tr.x, br.y - tr.y)) / 2;
  if (width / height < ASPECTS[0] || width / height > ASPECTS[1]) return null;
  if (width * height < MIN_AREA * grey.width * grey.height) return null;
  // Out from the middle: the window straddling the edge is not plain, nor is the ground beside
  // text printed close to an edge.
  const middle = {
    x: corners.reduce((sum, p) => sum + p.x, 0) / 4,
    y: corners.reduce((sum, p) => sum + p.y, 0) / 4,
  };
  const grow = RADIUS + 0.5 + SLACK * height;
  const out = corners.map((p) => {
    const [dx, dy] = [p.x - middle.x, p.y - middle.y];
    const reach = Math.hypot(dx, dy);
    const k = (reach + grow * Math.SQRT2) / reach;
    return { x: (middle.x + dx * k + 0.5) * factor, y: (middle.y + dy * k + 0.5) * factor };
  });
  return [out[0]!, out[1]!, out[2]!, out[3]!];
}
