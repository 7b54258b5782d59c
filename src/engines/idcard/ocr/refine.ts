/**
 * Card edges measured on the full-size photo: along each coarse edge, the strongest step of
 * brightness across it (to a fraction of a pixel), then a line fitted through those steps; twice,
 * the second time from the first fit with a shorter reach. The corners come from where the
 * fitted lines meet, so rounded card corners do not matter.
 */
import type { Canvas } from '../../canvas.js';
import type { Point, Quad } from '../warp.js';
import type { EdgeLine } from './edge-lines.js';
import { luminanceAt } from './grey.js';
import { intersection, robustLine, type Line } from './lines.js';

const SAMPLES = 48;

/** A line with its normal turned the way `like`'s points, so the edge's polarity still applies. */
function orientedLike(line: Line, like: Line): Line {
  return line.nx * like.nx + line.ny * like.ny >= 0 ? line : { nx: -line.nx, ny: -line.ny, d: -line.d };
}

/** The edge (in full-size pixels, running from p to q) re-measured on `image` within `reach` of it. */
function refineEdge(image: Canvas, edge: EdgeLine, p: Point, q: Point, reach: number): EdgeLine {
  // The picture's frame standing in for a side has no step to measure: it is where it is.
  if (edge.frame) return edge;
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const tx = (q.x - p.x) / length;
  const ty = (q.y - p.y) / length;
  const found: Point[] = [];
  const steps = Math.ceil(reach * 2) * 2 + 1;
  const profile = new Float64Array(steps);
  for (let s = 0; s < SAMPLES; s++) {
    const t = 0.1 + (0.8 * (s + 0.5)) / SAMPLES;
    // The point of the edge line nearest to this place along the side.
    const ax = p.x + (q.x - p.x) * t;
    const ay = p.y + (q.y - p.y) * t;
    const off = edge.nx * ax + edge.ny * ay - edge.d;
    const cx = ax - edge.nx * off;
    const cy = ay - edge.ny * off;
    // Brightness across the edge in half-pixel steps, averaged over a short stretch along it.
    for (let k = 0; k < steps; k++) {
      const o = (k - (steps - 1) / 2) * 0.5;
      let sum = 0;
      for (let u = -2; u <= 2; u++)
        sum += luminanceAt(image, cx + edge.nx * o + tx * u, cy + edge.ny * o + ty * u);
      profile[k] = sum / 5;
    }
    let bestK = -1;
    let bestStep = 0;
    for (let k = 1; k < steps - 1; k++) {
      const step = (profile[k + 1]! - profile[k - 1]!) * edge.polarity;
      if (step > bestStep) {
        bestStep = step;
        bestK = k;
      }
    }
    if (bestK < 2 || bestK > steps - 3 || bestStep < 2) continue;
    const before = (profile[bestK]! - profile[bestK - 2]!) * edge.polarity;
    const after = (profile[bestK + 2]! - profile[bestK]!) * edge.polarity;
    const curve = before - 2 * bestStep + after;
    const shift = curve < 0 ? (0.5 * (before - after)) / curve : 0;
    const o = (bestK + Math.max(-0.5, Math.min(0.5, shift)) - (steps - 1) / 2) * 0.5;
    found.push({ x: cx + edge.nx * o, y: cy + edge.ny * o });
  }
  const fitted = found.length >= SAMPLES / 3 ? robustLine(found, 1) : undefined;
  return fitted ? { ...edge, ...orientedLike(fitted, edge) } : edge;
}

type Edges = { top: EdgeLine; right: EdgeLine; bottom: EdgeLine; left: EdgeLine };

function cornersOf({ top, right, bottom, left }: Edges): [Point, Point, Point, Point] | undefined {
  const tl = intersection(top, left);
  const tr = intersection(top, right);
  const br = intersection(bottom, right);
  const bl = intersection(bottom, left);
  return tl && tr && br && bl ? [tl, tr, br, bl] : undefined;
}

/**
 * The four refined corners, given the coarse edges found at 1/`factor` of the size, or undefined
 * when the refined lines no longer meet.
 */
export function refineCorners(image: Canvas, coarse: Edges, factor: number): Quad | undefined {
  const scaled = (line: EdgeLine): EdgeLine => ({ ...line, d: line.d * factor });
  let edges: Edges = {
    top: scaled(coarse.top),
    right: scaled(coarse.right),
    bottom: scaled(coarse.bottom),
    left: scaled(coarse.left),
  };
  // The coarse lines can be a few reduced pixels off at the ends of a side; the first pass
  // reaches that far, the second only as far as the first fit may still be off.
  for (const reach of [3 * factor + 3, factor + 2]) {
    const corners = cornersOf(edges);
    if (!corners) return undefined;
    const [tl, tr, br, bl] = corners;
    edges = {
      top: refineEdge(image, edges.top, tl, tr, reach),
      right: refineEdge(image, edges.right, tr, br, reach),
      bottom: refineEdge(image, edges.bottom, bl, br, reach),
      left: refineEdge(image, edges.left, tl, bl, reach),
    };
  }
  return cornersOf(edges);
}
