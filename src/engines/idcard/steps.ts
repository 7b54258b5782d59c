/**
 * The ID card engine's steps, run on worker threads: decoding, locating and rectifying the card,
 * reading its text (PP-OCRv4), the image checks, finding the face and comparing portraits. The
 * models load on a thread's first card and stay for its life. Images cross the thread boundary
 * as bytes.
 */
import { decodeImage, encodePng } from '../image-codec.js';
import { readCard } from './ocr/index.js';
import { isCutOff, isPhotocopy, isReshoot, isTampered, qualityScore } from './checks/index.js';
import { portraitOn } from './face/portrait.js';
import { combined, similarityMeasures, type Measures } from './face/similarity.js';
import { CARD_HEIGHT, CARD_WIDTH, type Field } from './layout.js';

/** A card photo larger than this (a 48 MP phone picture) is refused rather than decoded. */
const MAX_PIXELS = 50_000_000;

/** Printed labels that identify a card front. */
const LABELS_OF_A_CARD = 3;

export interface Reading {
  found: boolean;
  fields: Record<Field, string>;
}

export interface Inspection extends Reading {
  quality: number;
  signals: { copy: boolean; border: boolean; reshoot: boolean; ps: boolean; temporary: boolean };
  portrait: Uint8Array | null;
  card: Uint8Array;
}

const decoded = (image: Uint8Array) =>
  decodeImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength), MAX_PIXELS);

/** The card's fields alone: what the ocr operation needs. */
export async function read(image: Uint8Array): Promise<Reading> {
  const reading = await readCard(decoded(image));
  return { found: reading.labelsFound >= LABELS_OF_A_CARD, fields: reading.fields };
}

export async function inspect(image: Uint8Array): Promise<Inspection> {
  const reading = await readCard(decoded(image));
  const portrait = await portraitOn(reading.card);
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
 * The measures of how alike the persons in two photos are. A whole rectified card (given where no
 * portrait could be cut from it) is compared by the photo around the face on it, not as a whole.
 */
export async function measures(a: Uint8Array, b: Uint8Array): Promise<Measures> {
  const face = async (bytes: Uint8Array) => {
    const image = decoded(bytes);
    const wholeCard = image.width === CARD_WIDTH && image.height === CARD_HEIGHT;
    return (wholeCard && (await portraitOn(image))) || image;
  };
  return similarityMeasures(await face(a), await face(b));
}

/** How alike the persons in two photos are, 0–100; 70 or more: one person. */
export async function similarity(a: Uint8Array, b: Uint8Array): Promise<number> {
  return combined(await measures(a, b));
}
