/**
 * The ID card engine's steps, run on worker threads: decoding, locating and rectifying the card,
 * Tesseract, the image checks and the portrait comparison take about a second of CPU per card.
 * Images cross the thread boundary as bytes.
 */
import { decodeImage, encodePng } from '../image-codec.js';
import { readCard } from './ocr/index.js';
import {
  cutPortrait,
  isCutOff,
  isPhotocopy,
  isReshoot,
  isTampered,
  portraitAroundFace,
  portraitSimilarity,
  qualityScore,
} from './checks/index.js';
import { CARD_HEIGHT, CARD_WIDTH } from './layout.js';

/** A card photo larger than this (a 48 MP phone picture) is refused rather than decoded. */
const MAX_PIXELS = 50_000_000;

/** Printed labels that identify a card front when its outline was not found. */
const LABELS_OF_A_CARD = 3;

export interface Inspection {
  found: boolean;
  fields: Record<'name' | 'sex' | 'nation' | 'birth' | 'address' | 'id_number', string>;
  quality: number;
  signals: { copy: boolean; border: boolean; reshoot: boolean; ps: boolean; temporary: boolean };
  portrait: Uint8Array | null;
  card: Uint8Array;
}

export async function inspect(image: Uint8Array): Promise<Inspection> {
  const canvas = decodeImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength), MAX_PIXELS);
  const reading = await readCard(canvas);
  const portrait = cutPortrait(reading.card);
  return {
    found: reading.labelsFound >= LABELS_OF_A_CARD,
    fields: reading.fields,
    quality: qualityScore(reading.card),
    signals: {
      copy: isPhotocopy(reading.card),
      border: isCutOff(reading.photo, reading.quad),
      reshoot: isReshoot(reading.photo, reading.card),
      ps: isTampered(reading.card, reading.valueBoxes),
      temporary: reading.temporary,
    },
    portrait: portrait ? encodePng(portrait) : null,
    card: encodePng(reading.card),
  };
}

/**
 * How alike the persons in two photos are, 0–100. A whole rectified card (given where no portrait
 * could be cut from it) is compared by the photo found around the face on it, not as a whole.
 */
export function similarity(a: Uint8Array, b: Uint8Array): number {
  const face = (bytes: Uint8Array) => {
    const image = decodeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), MAX_PIXELS);
    const wholeCard = image.width === CARD_WIDTH && image.height === CARD_HEIGHT;
    return (wholeCard && portraitAroundFace(image)) || image;
  };
  return portraitSimilarity(face(a), face(b));
}
