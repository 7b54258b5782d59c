/**
 * Reading the front of a resident identity card: find the card (turning the photo when it is on
 * its side or upside down), rectify it to the canonical raster, find and read its text lines
 * with PP-OCRv4, sort them into labels and values, and clean what was read.
 */
import { turned, type Canvas } from '../../canvas.js';
import { CARD_HEIGHT, CARD_WIDTH, FIELDS, LAYOUT, TEMPORARY_TITLE, type Box, type Field } from '../layout.js';
import { rectangle, warpQuad, type Quad } from '../warp.js';
import { anchor, placed } from './anchor.js';
import { correctDivisions } from './divisions.js';
import { cleanAddress, cleanBirth, cleanName, cleanSex, isTemporaryTitle } from './field-text.js';
import { shrink } from './grey.js';
import { checks, normaliseNumber } from './id-number-read.js';
import { locateCard } from './locate.js';
import { locatePlainCard } from './plain-region.js';
import { snapNation } from './nation.js';
import { cardText, LABELS } from './ppocr/card-text.js';
import { readNumber } from './ppocr/number-views.js';
import { readLines } from './ppocr/read-lines.js';

export interface CardReading {
  /** Cleaned values; '' where a value was not read. */
  fields: Record<Field, string>;
  /** 0–100 per field. */
  confidence: Record<Field, number>;
  /** The input turned so that the card stands upright (the input itself when it did). */
  photo: Canvas;
  /** The card's corners in `photo`, or null when no outline was found and the whole image was taken as the card. */
  quad: Quad | null;
  /** The card rectified to CARD_WIDTH×CARD_HEIGHT. */
  card: Canvas;
  /** The temporary card's title was read. */
  temporary: boolean;
  /** Where each value was read on the rectified card. */
  valueBoxes: Record<Field, Box>;
  /** How many of the six labels were found. */
  labelsFound: number;
}

export interface ReadOptions {
  signal?: AbortSignal;
}

const perField = <T>(value: (field: Field) => T) =>
  Object.fromEntries(FIELDS.map((f) => [f, value(f)])) as Record<Field, T>;

/** The card's pixels on the canonical raster; a photo much larger than the raster is reduced first, so the warp does not alias. */
function rectify(image: Canvas, quad: Quad | null): Canvas {
  const corners = quad ?? rectangle(image.width, image.height);
  const width = Math.hypot(corners[1].x - corners[0].x, corners[1].y - corners[0].y);
  const factor = Math.floor(width / (1.5 * CARD_WIDTH)) + 1;
  if (factor === 1) return warpQuad(image, corners, CARD_WIDTH, CARD_HEIGHT);
  const [tl, tr, br, bl] = corners.map((c) => ({ x: c.x / factor, y: c.y / factor }));
  return warpQuad(shrink(image, factor), [tl!, tr!, br!, bl!], CARD_WIDTH, CARD_HEIGHT);
}

async function readRectified(
  photo: Canvas,
  card: Canvas,
  quad: Quad | null,
  signal?: AbortSignal,
): Promise<CardReading> {
  const text = cardText(await readLines(card, signal));
  // Values not found are given the standard layout's places, fitted to the labels found.
  const { placement } = anchor(text.labelChars.map((c) => ({ ...c, confidence: 100 * c.probability })));
  const valueBoxes = perField((f) => text.boxes[f] ?? placed(LAYOUT[f].valueBox, placement));
  const fields = perField(() => '');
  const confidence = perField(() => 0);
  // No label at all: whatever is in the picture, it is not the front of a card.
  if (text.labels.size === 0)
    return { fields, confidence, photo, quad, card, temporary: false, valueBoxes, labelsFound: 0 };

  fields.name = cleanName(text.values.name);
  fields.sex = cleanSex(text.values.sex);
  const nation = snapNation(text.values.nation.replace(/\s/g, ''), text.alternatives.nation);
  fields.nation = nation?.nation ?? '';
  fields.birth = cleanBirth(text.values.birth);
  fields.address = correctDivisions(cleanAddress([text.values.address]));
  const first = { number: normaliseNumber(text.values.id_number), probability: text.probability.id_number };
  const number = await readNumber(card, first, text.boxes.id_number);
  if (number.length === 18) fields.id_number = number;
  for (const field of FIELDS) confidence[field] = fields[field] ? 100 * text.probability[field] : 0;
  if (nation) confidence.nation /= 1 + nation.distance;
  if (!checks(fields.id_number)) confidence.id_number /= 2;

  // The title of a temporary card stands above the name.
  const nameRow = text.rows.findIndex((row) => row.includes(LABELS.name));
  const above = nameRow >= 0 ? text.rows.slice(0, nameRow) : [];
  return {
    fields,
    confidence: perField((f) => Math.round(confidence[f])),
    photo,
    quad,
    card,
    temporary: above.some((row) => isTemporaryTitle(row.replace(/\s/g, ''), TEMPORARY_TITLE)),
    valueBoxes,
    labelsFound: text.labels.size,
  };
}

/**
 * Reads the card in `photo` as it stands: in the outline found, else in the whole image, else in
 * the plain region a busy surface leaves around the card. An outline short of the card (the
 * photo's frame and the stock's pattern can close one) still shows some labels, stretched: while
 * a reading misses any label the next place is read too, and the reading that found the most
 * labels stands.
 */
async function readUpright(photo: Canvas, signal?: AbortSignal): Promise<CardReading> {
  const outline = locateCard(photo);
  const places: (() => Quad | null | undefined)[] = [
    () => outline,
    () => (outline === null ? undefined : null),
    () => locatePlainCard(photo) ?? undefined,
  ];
  let best: CardReading | undefined;
  for (const place of places) {
    // undefined: nothing (new) to read there.
    const quad = place();
    if (quad === undefined) continue;
    const reading = await readRectified(photo, rectify(photo, quad), quad, signal);
    if (!best || reading.labelsFound > best.labelsFound) best = reading;
    if (best.labelsFound === FIELDS.length) break;
  }
  return best!;
}

/**
 * Quarter turns tried after the photo as it is, should no label be found in it: a phone held
 * upright or upside down stores the card on its side or head first. A portrait photo more likely
 * holds a card on its side, so its quarter turns come first.
 */
const turnsOf = (photo: Canvas) => (photo.height > photo.width ? [1, 3, 2] : [2, 1, 3]);

/** Reads the fields of the card in `image` (a photo, scan or rendering of the portrait side). */
export async function readCard(image: Canvas, options: ReadOptions = {}): Promise<CardReading> {
  const { signal } = options;
  signal?.throwIfAborted();
  const first = await readUpright(image, signal);
  if (first.labelsFound > 0) return first;
  for (const quarters of turnsOf(image)) {
    const reading = await readUpright(turned(image, quarters), signal);
    if (reading.labelsFound > 0) return reading;
  }
  return first;
}
