/**
 * Finding the card in a photo or scan: edges on a reduced grey copy, the card-shaped outline
 * among them, then its corners measured on the full-size image. The card is taken to be upright
 * within about ±30° (plus camera tilt); a card lying sideways or upside down is not turned.
 */
import type { Canvas } from '../../canvas.js';
import type { Point, Quad } from '../warp.js';
import { edgeMap } from './edges.js';
import { greyOf, padded } from './grey.js';
import type { EdgeLine } from './edge-lines.js';
import { intersection } from './lines.js';
import { findOutline, type Outline } from './outline.js';
import { refineCorners } from './refine.js';

/** Long side of the reduced copy the outline is searched on. */
const SEARCH_SIZE = 480;

/**
 * Reduced pixels of repeated border around that copy: a scan's card edge a pixel from the frame
 * is then as far inside as the edge map and the step across a side (3 pixels each way) reach.
 */
const PAD = 6;

/**
 * The outline in the reduced copy's own coordinates. A side that is the frame is put on the
 * picture's exact edge (`size`, in reduced pixels), which a partial last block lies across.
 */
function unpadded(outline: Outline, size: { width: number; height: number }): Outline {
  const place = (line: EdgeLine): EdgeLine => {
    if (!line.frame) return { ...line, d: line.d - PAD * (line.nx + line.ny) };
    const far = line.nx === 1 ? size.width : size.height;
    return { ...line, d: line.d <= PAD ? 0 : far };
  };
  const [top, right, bottom, left] = [outline.top, outline.right, outline.bottom, outline.left].map(place);
  // Each side only moved along its normal, so the sides that met still meet.
  const corners = [
    intersection(top!, left!)!,
    intersection(top!, right!)!,
    intersection(bottom!, right!)!,
    intersection(bottom!, left!)!,
  ] as Outline['corners'];
  return { ...outline, top: top!, right: right!, bottom: bottom!, left: left!, corners };
}

/** The card's corners (top-left, top-right, bottom-right, bottom-left) in `image`, or null when no outline is found. */
export function locateCard(image: Canvas): Quad | null {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / SEARCH_SIZE));
  const grey = padded(greyOf(image, factor), PAD);
  // A partial last block holds only what lies in the picture: the surface of a narrow margin.
  const picture = { left: PAD, top: PAD, right: grey.width - PAD, bottom: grey.height - PAD };
  const found = findOutline(grey, edgeMap(grey), picture);
  if (!found) return null;
  const outline = unpadded(found, { width: image.width / factor, height: image.height / factor });
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
