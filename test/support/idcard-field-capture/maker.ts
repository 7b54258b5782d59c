/**
 * One field capture: a holder, their card printed in one of this maker's layouts with their
 * card photo, lit and photographed or scanned; beside it another photo of the same holder (the
 * enrolled reference) and a photo of a stranger of the same sex and about the same age.
 */
import { type Canvas } from '@napi-rs/canvas';
import { hashOf, seeded } from '../../../src/engines/random.js';
import { drawCard, chooseLayout, FLAT_HEIGHT, FLAT_WIDTH, type Layout } from './card.js';
import { capture, type CaptureKind } from './capture.js';
import { drawFace } from './face-drawing.js';
import { cardShot, faceTraits, snapshotShot } from './face-traits.js';
import { forge, type Forgery } from './gb11643.js';
import type { Point } from './homography.js';
import { chooseLighting, light, type Lighting } from './lighting.js';
import { fictionalHolder, type Holder } from './people.js';
import type { Surface } from './scene.js';

export interface FieldCardOptions {
  /** Scanner or phone; drawn from the seed when absent (one in four scanned). */
  capture?: CaptureKind;
  /** The holder's nationality instead of the one drawn. */
  nation?: string;
  /** Print a number that breaks GB 11643 in this way instead of the holder's. */
  forge?: Forgery;
  /** Print exactly this number instead of the holder's (a forgery made by the caller). */
  printedNumber?: string;
}

/** What a reader should find on the card, with the member names of check-1e. */
export interface FieldTruth {
  name: string;
  sex: '男' | '女';
  nation: string;
  /** YYYY-MM-DD. */
  birth: string;
  /** The address as one string, its printed lines joined. */
  address: string;
  /** The number as printed (the forged one on a forged card). */
  id_num: string;
  /** The same number under the name the engine's fields and the other makers' truths use. */
  id_number: string;
}

export interface FieldCard {
  /** The captured card: JPEG, or PNG for some scans. */
  image: Buffer;
  truth: FieldTruth;
  holder: Holder;
  /** Another photo of the holder (other pose, light, expression, framing): the enrolled portrait. PNG. */
  reference: Buffer;
  /** A photo of someone else of the same sex and about the same age. PNG. */
  stranger: Buffer;
  /** On a forged card: how the number was broken and the holder's genuine number. */
  forged?: { how: Forgery | 'given'; printed: string; genuine: string };
  capture: CaptureKind;
  /** The card's corners in the image, clockwise from the printed side's top left. */
  corners: Point[];
  /** The photo's box on the flat card, in pixels of its FLAT_WIDTH × FLAT_HEIGHT. */
  photo: { x: number; y: number; w: number; h: number };
  lighting: Lighting;
  surface: Surface;
}

const PHOTO_WIDTH = 300;
const PHOTO_HEIGHT = 370;
/** The year the photos are taken in, for the holder's apparent age. */
const PHOTO_YEAR = 2024;

function photoOf(holder: Holder, kind: 'card' | 'snapshot', seed: number): Canvas {
  const age = PHOTO_YEAR - Number(holder.birth.slice(0, 4));
  const traits = faceTraits(holder.faceSeed, holder.sex, age);
  const random = seeded(hashOf(`field capture ${kind} photo`, seed));
  const shot = kind === 'card' ? cardShot(random) : snapshotShot(random);
  return drawFace(traits, shot, PHOTO_WIDTH, PHOTO_HEIGHT, random);
}

/** The holder of a seed, with the nationality and number the options ask for. */
function holderOf(
  seed: number,
  options: FieldCardOptions,
): { holder: Holder; printed: string; forged?: FieldCard['forged'] } {
  const holder = fictionalHolder(seed, options.nation);
  if (options.printedNumber !== undefined)
    return {
      holder,
      printed: options.printedNumber,
      forged: { how: 'given', printed: options.printedNumber, genuine: holder.idNumber },
    };
  if (options.forge === undefined) return { holder, printed: holder.idNumber };
  const printed = forge(holder.idNumber, options.forge, seeded(hashOf('field capture forgery', seed))());
  return { holder, printed, forged: { how: options.forge, printed, genuine: holder.idNumber } };
}

/** The card flat and unlit, at FLAT_WIDTH × FLAT_HEIGHT, with its layout: for checks on a rectified card. */
export function flatFieldCard(
  seed: number,
  options: FieldCardOptions = {},
): { card: Canvas; holder: Holder; layout: Layout; printed: string } {
  const { holder, printed } = holderOf(seed, options);
  const random = seeded(hashOf('field capture layout', seed));
  const layout = chooseLayout(random);
  const card = drawCard({ ...holder, idNumber: printed }, photoOf(holder, 'card', seed), layout, random);
  return { card, holder, layout, printed };
}

export function makeFieldCard(seed: number, options: FieldCardOptions = {}): FieldCard {
  const { holder, printed, forged } = holderOf(seed, options);
  const { card, layout } = flatFieldCard(seed, options);
  const random = seeded(hashOf('field capture capture', seed));
  // Drawn whether or not it is given, so that giving it leaves the rest of the capture as it was.
  const drawnKind: CaptureKind = random() < 0.25 ? 'scan' : 'phone';
  const kind = options.capture ?? drawnKind;
  const lighting = chooseLighting(random, kind === 'scan');
  light(card.getContext('2d'), FLAT_WIDTH, FLAT_HEIGHT, lighting, random);
  const shot = capture(card, kind, random);
  const stranger = fictionalHolder(hashOf('field capture stranger', seed));
  const strangerPhoto = photoOf(
    {
      ...stranger,
      sex: holder.sex,
      birth: `${Number(holder.birth.slice(0, 4)) + Math.round(random() * 6 - 3)}-01-01`,
    },
    'snapshot',
    seed,
  );
  return {
    image: shot.image,
    truth: {
      name: holder.name,
      sex: holder.sex,
      nation: holder.nation,
      birth: holder.birth,
      address: holder.address,
      id_num: printed,
      id_number: printed,
    },
    holder,
    reference: photoOf(holder, 'snapshot', seed).toBuffer('image/png'),
    stranger: strangerPhoto.toBuffer('image/png'),
    ...(forged ? { forged } : {}),
    capture: kind,
    corners: shot.corners,
    photo: {
      x: Math.round(layout.photo.x * FLAT_WIDTH),
      y: Math.round(layout.photo.y * FLAT_HEIGHT),
      w: Math.round(layout.photo.w * FLAT_WIDTH),
      h: Math.round(layout.photo.h * FLAT_HEIGHT),
    },
    lighting,
    surface: shot.surface,
  };
}
