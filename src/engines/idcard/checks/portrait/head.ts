/**
 * The first step of comparing ID photos: find the head against the photo's plain background and
 * bring the photo to one frame. The background is modelled from the photo's top band and side
 * strips (where no head or shoulders reach, see backdrop.ts); each channel of every pixel is then
 * divided by the background's in that channel there (a white balance on the backdrop), which takes
 * out exposure, dim light, a camera's colour cast and the tint of the card the photo was printed
 * on: under any of them, skin and hair keep their colour relative to the backdrop behind them. The
 * head is anchored at its crown and its middle, which a photographer
 * keeps within a few pixels; the ID-photo standard fixes the scale.
 */
import type { Canvas } from '../../../canvas.js';
import { planeOf, type Plane } from '../../plane.js';
import { boxBlur } from '../planes.js';
import { colourPlanes } from '../sampling.js';
import { backdropAt, backdropOf } from './backdrop.js';
import { headAndShoulders } from './silhouette.js';

/** The working raster: half the printed photo's 310×400. */
export const PHOTO_WIDTH = 155;
export const PHOTO_HEIGHT = 200;

export interface Head {
  /** Red, green and blue, each over the background's in that channel there (1 ≈ background). */
  rgb: [Plane, Plane, Plane];
  grey: Plane;
  /** 1 where a pixel differs from the background: hair, face, clothes. */
  foreground: Uint8Array;
  /** Row of the crown. */
  top: number;
  /** Column of the head's middle. */
  centre: number;
}

/** The strips the model of the background is fitted on: the top band, and the sides down to the shoulders. */
const TOP_BAND = Math.round(0.06 * PHOTO_HEIGHT);
const SIDE_STRIP = Math.round(0.05 * PHOTO_WIDTH);
const SIDES_DOWN_TO = Math.round(0.6 * PHOTO_HEIGHT);

/**
 * A pixel is foreground when a channel differs from the background by this share of its
 * brightness, or by this many times the background's own scatter (print texture, noise), if more.
 */
const MIN_DIFFERENCE = 0.04;
const NOISE_MARGIN = 2;

/** The white a glare lightens towards: the brightest a channel can hold. */
const WHITE = 255;

/**
 * Whether pixel `i` is the backdrop under a glare. A glare lightens what it falls on towards
 * white, every channel by one share g of its distance to white, so the backdrop behind it is still `backdrop` + g·(white − backdrop) for one g > 0, to
 * within `tolerance` in each channel. Hair, skin and clothes lighter than the backdrop are not:
 * their channels rise by different shares (a face is warm, a backdrop blue or grey), and darker
 * ones do not rise at all.
 */
function underGlare(
  planes: readonly Plane[],
  i: number,
  backdrop: readonly number[],
  tolerance: number,
): boolean {
  let along = 0;
  let room = 0;
  for (let c = 0; c < 3; c++) {
    const toWhite = WHITE - backdrop[c]!;
    along += (planes[c]!.data[i]! - backdrop[c]!) * toWhite;
    room += toWhite * toWhite;
  }
  const g = room > 0 ? along / room : 0;
  if (g <= 0 || g >= 1) return false;
  for (let c = 0; c < 3; c++) {
    const lit = backdrop[c]! + g * (WHITE - backdrop[c]!);
    if (Math.abs(planes[c]!.data[i]! - lit) > tolerance) return false;
  }
  return true;
}

/** First row, from the top, where the foreground is wide for several rows running: the crown. */
function crownOf(foreground: Uint8Array): number | null {
  const wide = Math.round(0.06 * PHOTO_WIDTH);
  const counts = Array.from({ length: PHOTO_HEIGHT }, (_, y) => {
    let n = 0;
    for (let x = 0; x < PHOTO_WIDTH; x++) n += foreground[y * PHOTO_WIDTH + x]!;
    return n;
  });
  for (let y = 0; y < PHOTO_HEIGHT * 0.5; y++) if (counts.slice(y, y + 4).every((n) => n >= wide)) return y;
  return null;
}

/** The head in `photo` (an ID photo, upright), or null where nothing stands out from a background. */
export function findHead(photo: Canvas): Head | null {
  const whole = { x: 0, y: 0, width: photo.width, height: photo.height };
  const planes = colourPlanes(photo, whole, PHOTO_WIDTH, PHOTO_HEIGHT).map((p) =>
    boxBlur(p, 1),
  ) as Head['rgb'];
  const { channels, spread } = backdropOf(
    planes,
    (x, y) => y < TOP_BAND || (y < SIDES_DOWN_TO && (x < SIDE_STRIP || x >= PHOTO_WIDTH - SIDE_STRIP)),
  );
  const size = PHOTO_WIDTH * PHOTO_HEIGHT;
  const rgb = planes.map(() => planeOf(PHOTO_WIDTH, PHOTO_HEIGHT)) as Head['rgb'];
  const grey = planeOf(PHOTO_WIDTH, PHOTO_HEIGHT);
  const differs = new Uint8Array(size);
  const backdrop = [0, 0, 0];
  for (let y = 0; y < PHOTO_HEIGHT; y++)
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      for (let c = 0; c < 3; c++) backdrop[c] = backdropAt(channels[c as 0 | 1 | 2], x, y);
      const white = Math.max(backdrop[0]!, backdrop[1]!, backdrop[2]!, 1);
      const threshold = Math.max(MIN_DIFFERENCE, (NOISE_MARGIN * spread) / white);
      const i = y * PHOTO_WIDTH + x;
      let difference = 0;
      for (let c = 0; c < 3; c++) {
        const value = planes[c]!.data[i]!;
        rgb[c]!.data[i] = value / Math.max(backdrop[c]!, 1);
        difference = Math.max(difference, Math.abs(value - backdrop[c]!) / white);
      }
      grey.data[i] = 0.299 * rgb[0].data[i]! + 0.587 * rgb[1].data[i]! + 0.114 * rgb[2].data[i]!;
      // Backdrop lit by a glare is still backdrop, not hair.
      differs[i] = difference > threshold && !underGlare(planes, i, backdrop, threshold * white) ? 1 : 0;
    }
  const foreground = headAndShoulders(differs, PHOTO_WIDTH, PHOTO_HEIGHT);
  const top = crownOf(foreground);
  if (top === null) return null;
  let sum = 0;
  let count = 0;
  for (let y = top; y < Math.min(PHOTO_HEIGHT, top + 40); y++)
    for (let x = 0; x < PHOTO_WIDTH; x++)
      if (foreground[y * PHOTO_WIDTH + x]) {
        sum += x;
        count++;
      }
  return { rgb, grey, foreground, top, centre: sum / count };
}
