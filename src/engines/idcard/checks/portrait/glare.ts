/**
 * A glare spot on a photographed card, taken off its portrait. A glare lightens what it falls on
 * towards white, every channel by one share g of its distance to white: seen = true·(1 − g) +
 * white·g. Over the backdrop g can be read at each pixel (the backdrop's colour is known there);
 * a glare is a round spot, brightest at its middle and fading smoothly, so the spot fitted to
 * the backdrop's g says how strong it is over the hair and the face beside it too, and there
 * every pixel is brought back to its true colour. Without this, the skin and hair under the spot
 * are washed towards white: the hair's tone, where hair and skin are, and the head's outline all
 * move, and the holder compares as a stranger.
 */
import type { Plane } from '../../plane.js';

/** The white a glare lightens towards: the brightest a channel can hold. */
export const WHITE = 255;

/**
 * g that the backdrop at pixel `i` has been lightened by, or null where the pixel is not the
 * backdrop so lightened: `backdrop` + g·(white − backdrop) for one g (0 for the backdrop itself)
 * to within `tolerance` in every channel. Hair, skin and clothes lighter than the backdrop are
 * not: their channels rise by different shares (a face is warm, a backdrop blue or grey), and
 * darker ones do not rise at all.
 */
export function glareAt(
  planes: readonly Plane[],
  i: number,
  backdrop: readonly number[],
  tolerance: number,
): number | null {
  let along = 0;
  let room = 0;
  for (let c = 0; c < 3; c++) {
    const toWhite = WHITE - backdrop[c]!;
    along += (planes[c]!.data[i]! - backdrop[c]!) * toWhite;
    room += toWhite * toWhite;
  }
  const g = room > 0 ? along / room : 0;
  if (g >= 1) return null;
  for (let c = 0; c < 3; c++) {
    const lit = backdrop[c]! + Math.max(0, g) * (WHITE - backdrop[c]!);
    if (Math.abs(planes[c]!.data[i]! - lit) > tolerance) return null;
  }
  return Math.max(0, g);
}

/** A round glare spot: g = strength · exp(−r² / 2·radius²) at distance r from (x, y). */
export interface Spot {
  x: number;
  y: number;
  radius: number;
  strength: number;
}

/**
 * Backdrop lightened by less than this many levels is no glare (print texture, noise, a
 * backdrop's own gradient)… A near-white backdrop has little room to lighten: there a level of
 * noise reads as a large g, so each sample counts by its room to white (the levels a glare of
 * g = 1 would add), and a near-white backdrop shows no glare at all.
 */
const LIT_LEVELS = 5;
/** …and a glare is taken off only where this share of the backdrop's samples is lit. */
const LIT_SHARE = 0.01;
/** Below this strength a fitted spot changes nothing worth the change. */
const WEAKEST = 0.08;
/** A spot fitted stronger than this is capped: past it, a pixel's true colour is too little of what is seen. */
const STRONGEST = 0.8;
/** Spot radii tried, in working pixels (a photo is 155 wide). */
const RADII = [8, 12, 17, 24, 34, 48];
/** Spot middles tried on a grid this coarse, over the photo and a third of it around. */
const GRID = 6;
/** Backdrop samples on a grid this coarse. */
const SAMPLE_STEP = 3;

/**
 * The glare spot that best explains g over the backdrop samples (`g` per pixel, NaN where the
 * pixel is no backdrop sample; `room` per pixel, the backdrop's distance to white in levels,
 * root mean square over the channels), by least squares weighted by room², or null where the
 * backdrop is not lit.
 */
export function fitSpot(g: Float32Array, room: Float32Array, width: number, height: number): Spot | null {
  const xs: number[] = [];
  const ys: number[] = [];
  const gs: number[] = [];
  const ws: number[] = [];
  let lit = 0;
  for (let y = 0; y < height; y += SAMPLE_STEP)
    for (let x = 0; x < width; x += SAMPLE_STEP) {
      const value = g[y * width + x]!;
      if (Number.isNaN(value)) continue;
      const levels = room[y * width + x]!;
      xs.push(x);
      ys.push(y);
      gs.push(value);
      ws.push(levels * levels);
      if (value * levels > LIT_LEVELS) lit++;
    }
  if (gs.length === 0 || lit < LIT_SHARE * gs.length) return null;
  let sumG2 = 0;
  for (const [j, v] of gs.entries()) sumG2 += ws[j]! * v * v;
  let best: Spot | null = null;
  let bestError = sumG2;
  const n = gs.length;
  const columns = Math.ceil(width / SAMPLE_STEP);
  const rows = Math.ceil(height / SAMPLE_STEP);
  const centresX: number[] = [];
  const centresY: number[] = [];
  for (let cx = -Math.round(width / 3); cx <= width + width / 3; cx += GRID) centresX.push(cx);
  for (let cy = -Math.round(height / 3); cy <= height + height / 3; cy += GRID) centresY.push(cy);
  for (const radius of RADII) {
    // The spot is separable: exp(−dx²/2r²)·exp(−dy²/2r²), each factor tabled per middle and sample place.
    const factor = (d: number) => Math.exp(-(d * d) / (2 * radius * radius));
    const alongX = centresX.map((cx) =>
      Float32Array.from({ length: columns }, (_, k) => factor(k * SAMPLE_STEP - cx)),
    );
    const alongY = centresY.map((cy) =>
      Float32Array.from({ length: rows }, (_, k) => factor(k * SAMPLE_STEP - cy)),
    );
    for (const [b, cy] of centresY.entries())
      for (const [a, cx] of centresX.entries()) {
        const fx = alongX[a]!;
        const fy = alongY[b]!;
        let gk = 0;
        let kk = 0;
        for (let j = 0; j < n; j++) {
          const k = fx[xs[j]! / SAMPLE_STEP]! * fy[ys[j]! / SAMPLE_STEP]!;
          const wk = ws[j]! * k;
          gk += wk * gs[j]!;
          kk += wk * k;
        }
        if (kk <= 0 || gk <= 0) continue;
        const strength = Math.min(STRONGEST, gk / kk);
        const error = sumG2 - 2 * strength * gk + strength * strength * kk;
        if (error < bestError) {
          bestError = error;
          best = { x: cx, y: cy, radius, strength };
        }
      }
  }
  if (best === null) return null;
  // Then finer, around the best of the grid: the spot's middle to a pixel or two, its size to a tenth.
  const coarse: Spot = best;
  for (const share of [0.8, 0.9, 1, 1.1, 1.25])
    for (let dy = -GRID; dy <= GRID; dy += 2)
      for (let dx = -GRID; dx <= GRID; dx += 2) {
        const spot = { x: coarse.x + dx, y: coarse.y + dy, radius: coarse.radius * share, strength: 0 };
        const spread = 2 * spot.radius * spot.radius;
        let gk = 0;
        let kk = 0;
        for (let j = 0; j < n; j++) {
          const k = Math.exp(-((xs[j]! - spot.x) ** 2 + (ys[j]! - spot.y) ** 2) / spread);
          const wk = ws[j]! * k;
          gk += wk * gs[j]!;
          kk += wk * k;
        }
        if (kk <= 0 || gk <= 0) continue;
        spot.strength = Math.min(STRONGEST, gk / kk);
        const error = sumG2 - 2 * spot.strength * gk + spot.strength * spot.strength * kk;
        if (error < bestError) {
          bestError = error;
          best = spot;
        }
      }
  return best.strength >= WEAKEST ? best : null;
}

/** The planes with `spot`'s glare taken off: each pixel's (seen − white·g) / (1 − g). */
export function withoutGlare(planes: readonly Plane[], spot: Spot): Plane[] {
  const spread = 2 * spot.radius * spot.radius;
  return planes.map((plane) => {
    const { width, height } = plane;
    const data = Float32Array.from(plane.data);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const g = spot.strength * Math.exp(-((x - spot.x) ** 2 + (y - spot.y) ** 2) / spread);
        if (g < 0.005) continue;
        const i = y * width + x;
        data[i] = Math.max(0, (data[i]! - WHITE * g) / (1 - g));
      }
    return { width, height, data };
  });
}
