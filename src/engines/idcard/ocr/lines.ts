/**
 * Straight lines in the plane as a unit normal and a distance (nx·x + ny·y = d): the four card
 * edges are lines, and the card corners are where neighbouring edges meet.
 */
import type { Point } from '../warp.js';

export interface Line {
  nx: number;
  ny: number;
  d: number;
}

/** Where two lines cross, or undefined when they are (nearly) parallel. */
export function intersection(a: Line, b: Line): Point | undefined {
  const det = a.nx * b.ny - a.ny * b.nx;
  if (Math.abs(det) < 1e-9) return undefined;
  return { x: (a.d * b.ny - a.ny * b.d) / det, y: (a.nx * b.d - a.d * b.nx) / det };
}

/** Signed distance of a point from a line. */
export function distance(line: Line, p: Point): number {
  return line.nx * p.x + line.ny * p.y - line.d;
}

/** The total-least-squares line through points (their principal axis). */
export function fitLine(points: readonly Point[]): Line {
  let mx = 0;
  let my = 0;
  for (const p of points) {
    mx += p.x;
    my += p.y;
  }
  mx /= points.length;
  my /= points.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const p of points) {
    const dx = p.x - mx;
    const dy = p.y - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  // The direction of largest spread; the normal is perpendicular to it.
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  return { nx, ny, d: nx * mx + ny * my };
}

/**
 * A line fitted to points while dropping the ones far from it, so a stray edge (a shadow, a
 * finger, the rounded corner) does not bend it.
 */
export function robustLine(points: readonly Point[], tolerance: number): Line | undefined {
  let kept = points;
  let line: Line | undefined;
  for (let round = 0; round < 4 && kept.length >= 2; round++) {
    line = fitLine(kept);
    const residuals = kept.map((p) => Math.abs(distance(line!, p)));
    const sorted = [...residuals].sort((a, b) => a - b);
    const limit = Math.max(tolerance, 2.5 * sorted[Math.floor(sorted.length / 2)]!);
    const next = kept.filter((_, i) => residuals[i]! <= limit);
    if (next.length === kept.length) break;
    kept = next;
  }
  return line;
}
