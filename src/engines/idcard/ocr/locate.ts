/**
 * Finding the card in a photo or scan: edges on a reduced grey copy, the card-shaped outline
 * among them, then its corners measured on the full-size image. The card is taken to be upright
 * within about ±10° (plus camera tilt); a card lying sideways or upside down is not turned.
 */
import type { Canvas } from '../../canvas.js';
import type { Point, Quad } from '../warp.js';
import { edgeMap } from './edges.js';
import { greyOf } from './grey.js';
import { findOutline } from './outline.js';
import { refineCorners } from './refine.js';

/** Long side of the reduced copy the outline is searched on. */
const SEARCH_SIZE = 480;

/** The card's corners (top-left, top-right, bottom-right, bottom-left) in `image`, or null when no outline is found. */
export function locateCard(image: Canvas): Quad | null {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / SEARCH_SIZE));
  const grey = greyOf(image, factor);
  const outline = findOutline(grey, edgeMap(grey));
  if (!outline) return null;
  const [tl, tr, br, bl] = outline.corners.map((c): Point => ({ x: c.x * factor, y: c.y * factor }));
  const coarse: Quad = [tl!, tr!, br!, bl!];
  const refined = refineCorners(image, outline, factor);
  // The coarse corners can be a few reduced pixels off (the Hough angles are 0.5° apart, and an
  // error in angle moves a corner along the crossing edge); a refinement that moves them much
  // further followed something else, and the coarse outline is kept.
  const tolerance = 5 * factor + 5;
  const agrees = refined?.every((c, i) => Math.hypot(c.x - coarse[i]!.x, c.y - coarse[i]!.y) <= tolerance);
  return refined && agrees ? refined : coarse;
}
