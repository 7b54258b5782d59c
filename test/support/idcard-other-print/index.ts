/**
 * A second, independent maker of synthetic ID cards, for measuring the reader on cards it was
 * not tuned on: its own layout, type, card stock, photo placement and capture (scanner or phone
 * camera), sharing with the specimen maker (../idcard-specimen) only the holders and their
 * faces, which are who the card is of rather than how it is printed.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { Canvas } from '../../../src/engines/canvas.js';
import { hashOf, seeded } from '../../../src/engines/random.js';
import { CARD_HEIGHT, CARD_WIDTH, type Box } from '../../../src/engines/idcard/layout.js';
import { drawPortrait, fictionalPerson, type Person } from '../idcard-specimen/index.js';
import { capture, type Capture } from './camera.js';
import { drawOtherCard, type CardChoices } from './card.js';

export interface OtherCardOptions extends CardChoices {
  seed: number;
  /** The holder; fictionalPerson(seed) when absent. */
  person?: Person;
  /** Scanner or phone; chosen by the seed when absent (three in ten scanned). */
  capture?: Capture;
}

export interface OtherCard {
  /** JPEG or PNG bytes. */
  image: Buffer;
  person: Person;
  truth: { name: string; sex: string; nation: string; birth: string; address: string; id_number: string };
  /** The photo's place on the card, in pixels of the 1000-wide canonical raster. */
  photo: Box;
  capture: Capture;
  /** The card's corners in the image, clockwise from top left: where the reader should find it. */
  corners: [number, number][];
  glare: boolean;
}

/** The photograph variants the other printer uses: never the specimen maker's own 0. */
const VARIANTS = [2, 3, 4, 5, 6];

export function makeOtherCard(options: OtherCardOptions): OtherCard {
  const random = seeded(hashOf('other print', options.seed));
  const person = options.person ?? fictionalPerson(options.seed);
  // Drawn whether or not it is given, so that giving it leaves the card as it was.
  const drawn = random();
  const how = options.capture ?? (drawn < 0.3 ? 'scan' : 'phone');
  const portrait = drawPortrait(person.portraitSeed, VARIANTS[Math.floor(random() * VARIANTS.length)]!);
  const { card, photo } = drawOtherCard(person, portrait, random, options);
  const shot = capture(card, how, random);
  return {
    image: shot.image,
    person,
    truth: {
      name: person.name,
      sex: person.sex,
      nation: person.nation,
      birth: person.birth,
      address: person.address,
      id_number: person.idNumber,
    },
    photo,
    capture: how,
    corners: shot.corners,
    glare: shot.glare,
  };
}

/**
 * The other printer's card flat, at the canonical 1000×631: for checks that work on a rectified
 * card, without a capture in between.
 */
export function flatOtherCard(options: OtherCardOptions): { card: Canvas; person: Person; photo: Box } {
  const random = seeded(hashOf('other print', options.seed));
  const person = options.person ?? fictionalPerson(options.seed);
  random();
  const portrait = drawPortrait(person.portraitSeed, VARIANTS[Math.floor(random() * VARIANTS.length)]!);
  const { card, photo } = drawOtherCard(person, portrait, random, options);
  const flat = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const ctx = flat.getContext('2d');
  ctx.drawImage(card, 0, 0, CARD_WIDTH, CARD_HEIGHT);
  const pixels = ctx.getImageData(0, 0, CARD_WIDTH, CARD_HEIGHT);
  return {
    card: { width: CARD_WIDTH, height: CARD_HEIGHT, data: new Uint8Array(pixels.data.buffer) },
    person,
    photo,
  };
}
