/**
 * The first step of comparing ID photos: find the head against the photo's plain background and
 * bring the photo to one frame. The background is modelled from the photo's top band and side
 * strips (where no head or shoulders reach, see backdrop.ts); each channel of every pixel is then
 * divided by the background's in that channel there (a white balance on the backdrop), which takes
 * out exposure, dim light, a camera's colour cast and the tint of the card the photo was printed
 * on: under any of them, skin and hair keep their colour relative to the backdrop behind them. The
 * head is anchored at its crown and its middle, which a photographer
 * keeps within a few pixels; the ID-photo standard fixes the scale. Backdrop lit by a glare is
 * still backdrop, and the glare's spot can be taken off the whole photo (findHeads, glare.ts).
 */
import type { Canvas } from '../../../canvas.js';
import { planeOf, type Plane } from '../../plane.js';
import { boxBlur } from '../planes.js';
import { colourPlanes } from '../sampling.js';
import { backdropAt, backdropOf } from './backdrop.js';
import { fitSpot, glareAt, WHITE, withoutGlare } from './glare.js';
import { headAndShoulders } from './silhouette.js';
import { refinedSpot } from './spot-refine.js';

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

interface Measured {
  rgb: Head['rgb'];
  grey: Plane;
  foreground: Uint8Array;
  /** How much a glare lightened each pixel of the backdrop (NaN elsewhere)… */
  lit: Float32Array;
  /** …and the backdrop's room to lighten there, in levels. */
  room: Float32Array;
}

/** The planes balanced on their backdrop, and the head and shoulders standing out from it. */
function measured(planes: readonly Plane[]): Measured {
  const { channels, spread } = backdropOf(
    planes,
    (x, y) => y < TOP_BAND || (y < SIDES_DOWN_TO && (x < SIDE_STRIP || x >= PHOTO_WIDTH - SIDE_STRIP)),
  );
  const size = PHOTO_WIDTH * PHOTO_HEIGHT;
  const rgb = planes.map(() => planeOf(PHOTO_WIDTH, PHOTO_HEIGHT)) as Head['rgb'];
  const grey = planeOf(PHOTO_WIDTH, PHOTO_HEIGHT);
  const differs = new Uint8Array(size);
  const lit = new Float32Array(size).fill(Number.NaN);
  const room = new Float32Array(size);
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
      const g = glareAt(planes, i, backdrop, threshold * white);
      if (g !== null) lit[i] = g;
      room[i] = Math.sqrt(
        ((WHITE - backdrop[0]!) ** 2 + (WHITE - backdrop[1]!) ** 2 + (WHITE - backdrop[2]!) ** 2) / 3,
      );
      differs[i] = difference > threshold && !(g !== null && g > 0) ? 1 : 0;
    }
  const foreground = headAndShoulders(differs, PHOTO_WIDTH, PHOTO_HEIGHT);
  for (let i = 0; i < size; i++) if (foreground[i]) lit[i] = Number.NaN;
  return { rgb, grey, foreground, lit, room };
}

/** The head found in the measured planes, or null where no crown stands out. */
function headOf({ rgb, grey, foreground }: Measured): Head | null {
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

/** The backdrop's pixels, every third one each way: what no head or shoulders cover. */
function backdropSamples(foreground: Uint8Array): Int32Array {
  const samples: number[] = [];
  for (let y = 0; y < PHOTO_HEIGHT; y += 3)
    for (let x = 0; x < PHOTO_WIDTH; x += 3)
      if (!foreground[y * PHOTO_WIDTH + x]) samples.push(y * PHOTO_WIDTH + x);
  return Int32Array.from(samples);
}

const workingPlanes = (photo: Canvas) =>
  colourPlanes(
    photo,
    { x: 0, y: 0, width: photo.width, height: photo.height },
    PHOTO_WIDTH,
    PHOTO_HEIGHT,
  ).map((p) => boxBlur(p, 1));

/** The head in `photo` (an ID photo, upright), or null where nothing stands out from a background. */
export function findHead(photo: Canvas): Head | null {
  return headOf(measured(workingPlanes(photo)));
}

/**
 * The head in `photo` as it is, and as it is with a glare spot that lights its backdrop taken off
 * the whole photo (glare.ts); `unglared` is null where no such spot was found.
 */
export function findHeads(photo: Canvas): { head: Head | null; unglared: Head | null } {
  const planes = workingPlanes(photo);
  const found = measured(planes);
  const fitted = fitSpot(found.lit, found.room, PHOTO_WIDTH, PHOTO_HEIGHT);
  // The spot is fitted beside the backdrop's plane, which took part of it: it is then moved to
  // where the backdrop without it is a plane (spot-refine.ts).
  const spot = fitted && refinedSpot(planes, backdropSamples(found.foreground), fitted);
  return { head: headOf(found), unglared: spot && headOf(measured(withoutGlare(planes, spot))) };
}
