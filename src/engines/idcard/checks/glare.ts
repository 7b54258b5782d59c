/**
 * Glare: a reflection off a screen or a laminate washes part of the card out to white. It shows
 * as a large blob brighter than the card's own paper, which nothing printed on a card is (print
 * only darkens it). A photocopy's paper is blown out to white all over: nothing on it is brighter
 * than its paper either.
 */
import type { Canvas } from '../../canvas.js';
import { CARD_HEIGHT, CARD_WIDTH } from '../layout.js';
import { partsOf } from './parts.js';
import type { Plane } from '../plane.js';
import { levelQuantile } from './planes.js';
import { sampled } from './sampling.js';

/** The card at a quarter of its size: blobs are large, and averaging fades the guilloche. */
const SCALE = 4;
const WIDTH = Math.round(CARD_WIDTH / SCALE);
const HEIGHT = Math.round(CARD_HEIGHT / SCALE);
/** The share of a card darker than its paper (print, the photo, and the paper's own shading). */
const PAPER = 0.75;
/** A washed-out pixel is at least half way from the paper's brightness to full white… */
const WASH = 0.5;
/** …and at least this bright, above any card stock (whose brightest, the warm side, is about 240). */
const MIN_WASHED = 245;
/** A blob counts from this share of the card (a reflection's core is a few per cent of it)… */
const MIN_AREA = 0.005;
/** …up to this share (beyond it the whole card is white: a copy, not a reflection). */
const MAX_AREA = 0.35;
/** The blob is at least this much brighter than the paper. */
const BRIGHTER = 6;

interface Blob {
  pixels: number;
  mean: number;
}

function washedBlobs(grey: Plane, washed: number): Blob[] {
  const set = new Uint8Array(grey.data.length);
  for (let i = 0; i < set.length; i++) set[i] = grey.data[i]! >= washed ? 1 : 0;
  const { label, sizes } = partsOf(set, WIDTH);
  const blobs: Blob[] = sizes.map((pixels) => ({ pixels, mean: 0 }));
  for (let i = 0; i < label.length; i++)
    if (label[i]! > 0) blobs[label[i]!]!.mean += grey.data[i]! / sizes[label[i]!]!;
  return blobs.slice(1);
}

export function hasGlare(card: Canvas): boolean {
  const [grey] = sampled(card, { x: 0, y: 0, width: CARD_WIDTH, height: CARD_HEIGHT }, WIDTH, HEIGHT, [
    'luminance',
  ]) as [Plane];
  // Most of a card is bare stock, the brightest thing printed: the paper's own brightness.
  const paper = levelQuantile(grey.data, PAPER);
  const washed = Math.max(MIN_WASHED, paper + WASH * (255 - paper));
  const area = WIDTH * HEIGHT;
  return washedBlobs(grey, washed).some(
    (blob) =>
      blob.pixels >= MIN_AREA * area && blob.pixels <= MAX_AREA * area && blob.mean - paper >= BRIGHTER,
  );
}
