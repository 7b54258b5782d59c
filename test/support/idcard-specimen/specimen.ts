/**
 * A specimen: a synthetic card image with what is printed on it and what a reader should say
 * about it. The card is rendered on the canonical raster, altered on the card (a pasted value, a
 * reflection), photographed or not, then put through the camera, the copier or the encoder.
 * Every choice is drawn from the seed, one stream per step, so the same options give the same
 * bytes and adding a degradation leaves the person and the card as they were.
 */
import { turned, type Canvas } from '../../../src/engines/canvas.js';
import { PNG } from 'pngjs';
import { decodeImage } from '../../../src/engines/image-codec.js';
import { hashOf, pick, seeded, type Random } from '../../../src/engines/random.js';
import { CARD_HEIGHT, CARD_WIDTH, LAYOUT } from '../../../src/engines/idcard/layout.js';
import { rectangle, type Point, type Quad } from '../../../src/engines/idcard/warp.js';
import {
  addSensorNoise,
  gaussianBlur,
  jpegFile,
  photocopy,
  screenMoire,
  specularGlare,
  underexpose,
} from './degrade.js';
import { CARD_FONTS } from './fonts.js';
import { pasteOver } from './pasted.js';
import { fictionalPerson, type Person } from './people.js';
import { photograph } from './photo.js';
import { printOf } from './print.js';
import { renderCard } from './render.js';

export const DEGRADATIONS = [
  'photo',
  'blur',
  'rotation',
  'perspective',
  'jpeg',
  'noise',
  'dim',
  'photocopy',
  'moire',
  'glare',
  'pasted',
  'cut',
  'temporary',
  'turned',
] as const;
export type Degradation = (typeof DEGRADATIONS)[number];

/** The warnings a reader should raise, in this order. */
export type SpecimenWarning = 'copy' | 'border' | 'reshoot' | 'ps' | 'temp_id' | 'blur';

export interface SpecimenOptions {
  seed: number;
  /** The holder; fictionalPerson(seed) when absent. */
  person?: Person;
  degradations?: readonly Degradation[];
  /** One of CARD_FONTS; chosen by the seed when absent. */
  font?: string;
}

export interface SpecimenTruth {
  name: string;
  sex: string;
  nation: string;
  /** YYYY-MM-DD. */
  birth: string;
  address: string;
  id_number: string;
  temporary: boolean;
  warnings: readonly SpecimenWarning[];
}

export interface Specimen {
  /** JPEG when 'jpeg' was applied, else PNG (encoded on first access). */
  image: Buffer;
  /** The final pixels; for a JPEG, as decodeImage reads the file (decoded on first access). */
  canvas: Canvas;
  person: Person;
  /** What the image shows: the person's values, except a pasted one. */
  truth: SpecimenTruth;
  /** The card's corners in the image; null when the card runs out of the frame. */
  quad: Quad | null;
}

/**
 * PNG with the Sub filter on every row: for photographs as small as the adaptive choice and
 * about half the time, which matters when a benchmark makes thousands.
 */
function photoPng(canvas: Canvas): Buffer {
  const { width, height, data } = canvas;
  const rgba = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return PNG.sync.write({ width, height, data: rgba } as PNG, { deflateLevel: 3, filterType: 1 });
}

/** Where point `p` of a width×height image lands when the image is turned clockwise by `quarters`. */
function turnedPoint(
  p: Point,
  { width, height }: { width: number; height: number },
  quarters: number,
): Point {
  if (quarters === 1) return { x: height - p.y, y: p.x };
  if (quarters === 2) return { x: width - p.x, y: height - p.y };
  return { x: p.y, y: width - p.x };
}

/** Blur at or above this standard deviation (card pixels) should be flagged. */
export const BLUR_WARNING_SIGMA = 2;

export function makeSpecimen(options: SpecimenOptions): Specimen {
  const { seed } = options;
  const asked = new Set(options.degradations ?? []);
  const stream = (step: string): Random => seeded(hashOf(`specimen ${step}`, seed));
  const person = options.person ?? fictionalPerson(seed);
  const font = options.font ?? pick(stream('font'), CARD_FONTS);
  const temporary = asked.has('temporary');
  const warnings = new Set<SpecimenWarning>();
  const truth = {
    name: person.name,
    sex: person.sex,
    nation: person.nation,
    birth: person.birth,
    address: person.address,
    id_number: person.idNumber,
    temporary,
  };

  let card = renderCard(person, { font, temporary, seed });
  if (temporary) warnings.add('temp_id');
  if (asked.has('pasted')) {
    const paste = pasteOver(card, person, printOf(seed), font, stream('pasted'));
    card = paste.card;
    truth[paste.field] = paste.value;
    warnings.add('ps');
  }
  if (asked.has('glare')) {
    specularGlare(card, stream('glare'), { belowY: LAYOUT.id_number.valueBox.y - 6 });
    warnings.add('reshoot');
  }

  let image = card;
  let quad: Quad | null = rectangle(CARD_WIDTH, CARD_HEIGHT);
  let scale = 1;
  const framing = {
    rotation: asked.has('rotation'),
    perspective: asked.has('perspective'),
    cut: asked.has('cut'),
  };
  if (asked.has('photo') || framing.rotation || framing.perspective || framing.cut) {
    const photo = photograph(card, stream('photo'), framing);
    ({ image, quad, scale } = photo);
    if (framing.cut) {
      quad = null;
      warnings.add('border');
    }
  }

  if (asked.has('moire')) {
    screenMoire(image, stream('moire'));
    warnings.add('reshoot');
  }
  if (asked.has('dim')) underexpose(image, stream('dim'));
  if (asked.has('blur')) {
    const sigma = 1 + 1.5 * stream('blur')();
    image = gaussianBlur(image, sigma * scale);
    if (sigma >= BLUR_WARNING_SIGMA) warnings.add('blur');
  }
  if (asked.has('noise')) addSensorNoise(image, stream('noise'));
  if (asked.has('photocopy')) {
    photocopy(image, stream('photocopy'));
    warnings.add('copy');
  }

  if (asked.has('turned')) {
    // A phone held on its side or upside down: a quarter, half or three-quarter turn.
    const quarters = 1 + Math.floor(3 * stream('turned')());
    const before = { width: image.width, height: image.height };
    image = turned(image, quarters);
    const turn = (p: Point) => turnedPoint(p, before, quarters);
    quad = quad && [turn(quad[0]), turn(quad[1]), turn(quad[2]), turn(quad[3])];
  }

  const order: readonly SpecimenWarning[] = ['copy', 'border', 'reshoot', 'ps', 'temp_id', 'blur'];
  const result = { person, truth: { ...truth, warnings: order.filter((w) => warnings.has(w)) }, quad };
  if (asked.has('jpeg')) {
    const quality = Math.round(35 + 25 * stream('jpeg')());
    const bytes = jpegFile(image, quality);
    // Decoding costs more than everything else together, so the pixels are read on first use,
    // with the decoder the server itself uses.
    let decoded: Canvas | undefined;
    return {
      ...result,
      image: bytes,
      get canvas() {
        decoded ??= decodeImage(bytes, image.width * image.height);
        return decoded;
      },
    };
  }
  // Most tests use the pixels only: the PNG is made on first access, like the JPEG's pixels.
  const pixels = image;
  let png: Buffer | undefined;
  return {
    ...result,
    canvas: pixels,
    get image() {
      png ??= photoPng(pixels);
      return png;
    },
  };
}
