/**
 * Global motion between two frames: blocks of the first are found in the second (a coarse
 * search for the overall shift, then a fine search per block with sub-pixel refinement), and a
 * similarity (shift, scale, rotation) is fitted to the block displacements by least squares,
 * twice, dropping blocks that disagree (things that move on their own). Used to borrow a
 * reference video's camera motion, and to check our own.
 */
import type { Canvas } from '../canvas.js';

/**
 * How content moved from one frame to the next: shift of the centre as a fraction of the frame
 * (dx right, dy down), scale (above 1: content grew), rotation in radians (positive: clockwise
 * on screen), and how many blocks agreed.
 */
export interface FrameMotion {
  dx: number;
  dy: number;
  scale: number;
  rotation: number;
  blocks: number;
}

interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

/** Luminance, box-averaged down to `width` columns. */
function lumaPlane(image: Canvas, width: number): Plane {
  const factor = image.width / width;
  const height = Math.max(1, Math.round(image.height / factor));
  const data = new Float32Array(width * height);
  const counts = new Float32Array(width * height);
  for (let y = 0; y < image.height; y += 1) {
    const ty = Math.min(height - 1, Math.floor(y / factor));
    for (let x = 0; x < image.width; x += 1) {
      const o = (y * image.width + x) * 4;
      const t = ty * width + Math.min(width - 1, Math.floor(x / factor));
      data[t]! += 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!;
      counts[t]! += 1;
    }
  }
  for (let i = 0; i < data.length; i += 1) data[i]! /= Math.max(1, counts[i]!);
  return { width, height, data };
}

/** Mean absolute difference of a block of `a` at (x, y) and of `b` shifted by (sx, sy). */
function blockCost(a: Plane, b: Plane, x: number, y: number, size: number, sx: number, sy: number): number {
  let sum = 0;
  for (let j = 0; j < size; j += 1) {
    const ra = (y + j) * a.width + x;
    const rb = (y + j + sy) * b.width + x + sx;
    for (let i = 0; i < size; i += 1) sum += Math.abs(a.data[ra + i]! - b.data[rb + i]!);
  }
  return sum / (size * size);
}

/** The best whole-pixel shift of a block within ±radius around (cx, cy), or undefined off the edge. */
function search(
  a: Plane,
  b: Plane,
  x: number,
  y: number,
  size: number,
  cx: number,
  cy: number,
  radius: number,
): { sx: number; sy: number; costs: number[][] } | undefined {
  let best = Infinity;
  let bx = 0;
  let by = 0;
  const costs: number[][] = [];
  for (let sy = cy - radius; sy <= cy + radius; sy += 1) {
    const row: number[] = [];
    for (let sx = cx - radius; sx <= cx + radius; sx += 1) {
      const inside = x + sx >= 0 && y + sy >= 0 && x + sx + size <= b.width && y + sy + size <= b.height;
      const cost = inside ? blockCost(a, b, x, y, size, sx, sy) : Infinity;
      row.push(cost);
      if (cost < best) [best, bx, by] = [cost, sx, sy];
    }
    costs.push(row);
  }
  return best === Infinity ? undefined : { sx: bx, sy: by, costs };
}

/** Vertex of the parabola through three costs around a minimum, in [-0.5, 0.5]. */
function subpixel(left: number, mid: number, right: number): number {
  const curve = left - 2 * mid + right;
  if (!Number.isFinite(curve) || curve <= 0) return 0;
  return Math.max(-0.5, Math.min(0.5, (left - right) / (2 * curve)));
}

function spread(p: Plane, x: number, y: number, size: number): number {
  let sum = 0;
  let squares = 0;
  for (let j = 0; j < size; j += 1) {
    for (let i = 0; i < size; i += 1) {
      const v = p.data[(y + j) * p.width + x + i]!;
      sum += v;
      squares += v * v;
    }
  }
  const mean = sum / (size * size);
  return Math.sqrt(Math.max(0, squares / (size * size) - mean * mean));
}

interface Match {
  px: number;
  py: number;
  ux: number;
  uy: number;
}

/** Least-squares similarity: displacement = [[a, -b], [b, a]] · p + t. */
function fit(matches: readonly Match[]): { a: number; b: number; tx: number; ty: number } {
  const n = matches.length;
  let mx = 0;
  let my = 0;
  let mux = 0;
  let muy = 0;
  for (const m of matches) {
    mx += m.px / n;
    my += m.py / n;
    mux += m.ux / n;
    muy += m.uy / n;
  }
  let sxx = 0;
  let sa = 0;
  let sb = 0;
  for (const m of matches) {
    const x = m.px - mx;
    const y = m.py - my;
    const ux = m.ux - mux;
    const uy = m.uy - muy;
    sxx += x * x + y * y;
    sa += x * ux + y * uy;
    sb += x * uy - y * ux;
  }
  const a = sxx > 0 ? sa / sxx : 0;
  const b = sxx > 0 ? sb / sxx : 0;
  return { a, b, tx: mux - (a * mx - b * my), ty: muy - (b * mx + a * my) };
}

export function estimateMotion(first: Canvas, second: Canvas): FrameMotion {
  const fineWidth = Math.min(first.width, 192);
  const a = lumaPlane(first, fineWidth);
  const b = lumaPlane(second, fineWidth);
  const coarseA = lumaPlane(first, 48);
  const coarseB = lumaPlane(second, 48);
  // The overall shift from one big central block, at a quarter of the fine resolution.
  const inset = Math.round(Math.min(coarseA.height, coarseA.width) * 0.25);
  const side = Math.min(coarseA.height, coarseA.width) - 2 * inset;
  const left = Math.round((coarseA.width - side) / 2);
  const top = Math.round((coarseA.height - side) / 2);
  const centre = search(coarseA, coarseB, left, top, side, 0, 0, inset);
  const ratio = a.width / coarseA.width;
  const gx = Math.round((centre?.sx ?? 0) * ratio);
  const gy = Math.round((centre?.sy ?? 0) * ratio);
  const size = Math.max(8, Math.round(a.width / 16));
  const radius = Math.ceil(ratio) + 2;
  const matches: Match[] = [];
  const columns = 10;
  const rows = Math.max(4, Math.round((columns * a.height) / a.width));
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < columns; c += 1) {
      const x = Math.round(((c + 0.5) / columns) * a.width - size / 2);
      const y = Math.round(((r + 0.5) / rows) * a.height - size / 2);
      if (x < 0 || y < 0 || x + size > a.width || y + size > a.height) continue;
      if (spread(a, x, y, size) < 2) continue;
      const found = search(a, b, x, y, size, gx, gy, radius);
      if (!found) continue;
      const { sx, sy, costs } = found;
      const row = costs[sy - gy + radius]!;
      const column = (dy: number) => costs[sy - gy + radius + dy]?.[sx - gx + radius] ?? Infinity;
      const i = sx - gx + radius;
      const ux = sx + subpixel(row[i - 1] ?? Infinity, row[i]!, row[i + 1] ?? Infinity);
      const uy = sy + subpixel(column(-1), column(0), column(1));
      matches.push({ px: x + size / 2 - a.width / 2, py: y + size / 2 - a.height / 2, ux, uy });
    }
  }
  if (matches.length < 3) return { dx: 0, dy: 0, scale: 1, rotation: 0, blocks: matches.length };
  let model = fit(matches);
  const residual = (m: Match) =>
    Math.hypot(
      m.ux - (model.a * m.px - model.b * m.py + model.tx),
      m.uy - (model.b * m.px + model.a * m.py + model.ty),
    );
  const sorted = matches.map(residual).sort((p, q) => p - q);
  const limit = Math.max(0.5, 2.5 * sorted[Math.floor(sorted.length / 2)]!);
  const kept = matches.filter((m) => residual(m) <= limit);
  if (kept.length >= 3) model = fit(kept);
  return {
    dx: model.tx / a.width,
    dy: model.ty / a.height,
    scale: Math.hypot(1 + model.a, model.b),
    rotation: Math.atan2(model.b, 1 + model.a),
    blocks: kept.length,
  };
}
