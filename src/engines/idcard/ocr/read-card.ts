/**
 * Reading the front of a resident identity card: find the card (turning the photo when it is on
 * its side or upside down), rectify it to the canonical raster, anchor on its printed labels,
 * recognise each value with the settings that suit it, and clean what was read. Tesseract reads
 * four batches of crops per card (the labels; the Chinese values in two line modes; the digits).
 */
import { turned, type Canvas } from '../../canvas.js';
import { CARD_HEIGHT, CARD_WIDTH, FIELDS, LAYOUT, TEMPORARY_TITLE, type Box, type Field } from '../layout.js';
import { rectangle, warpQuad, type Quad } from '../warp.js';
import { anchor, placed } from './anchor.js';
import type { Reading } from './consensus.js';
import { correctDivisions } from './divisions.js';
import { cleanAddress, cleanBirth, cleanName, cleanSex, isTemporaryTitle } from './field-text.js';
import { shrink } from './grey.js';
import { checks, normaliseNumber } from './id-number-read.js';
import { locateCard } from './locate.js';
import { nationOf } from './nation.js';
import { regionOf } from './raster.js';
import { readValues } from './read-values.js';
import { recognise } from './tesseract.js';
import { union } from './value-crops.js';

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

/**
 * The band of the card the labels are printed in, with room for a card that is shifted: reading
 * it costs a third of reading the whole card, whose long values the label search does not need.
 */
const LABEL_BAND = { x: 0, y: 0, width: 440, height: CARD_HEIGHT };

const textOf = (reading: Reading) => reading.map((c) => c.char).join('');
const confidenceOf = (readings: readonly Reading[]) => {
  const chars = readings.flat().filter((c) => c.char.trim() !== '');
  return chars.length === 0 ? 0 : chars.reduce((sum, c) => sum + c.weight, 0) / chars.length;
};

/**
 * The date of birth most of its readings agree on: its digits in each digit view, and its line
 * read in Chinese. Without a majority, the first digit view's date, else the Chinese one.
 */
function birthOf(digitViews: readonly Reading[][], chinese: string): string {
  const dates = [
    ...digitViews.map((groups) => cleanBirth(groups.map(textOf).join(' '))),
    cleanBirth(chinese),
  ];
  const read = dates.filter(Boolean);
  const agreed = read.find((date) => read.filter((d) => d === date).length > read.length / 2);
  return agreed ?? read[0] ?? '';
}

/**
 * 男 or 女 from the consensus of the views; where that reads as neither (the views of a lone
 * character mostly come back empty or as a mark), the one that more of the views read.
 */
function sexOf(agreed: string, views: readonly Reading[][]): string {
  const sex = cleanSex(agreed);
  if (sex) return sex;
  const read = views.map((view) => cleanSex(textOf(view[0] ?? []))).filter(Boolean);
  const male = read.filter((s) => s === '男').length;
  const female = read.length - male;
  return male === female ? '' : male > female ? '男' : '女';
}

async function readRectified(
  photo: Canvas,
  card: Canvas,
  quad: Quad | null,
  signal?: AbortSignal,
): Promise<CardReading> {
  const [labelWords = []] = await recognise(
    [regionOf(card, LABEL_BAND, 'any')],
    { language: 'chi_sim', psm: 6 },
    signal,
  );
  const { placement, found } = anchor(labelWords);
  const valueBoxes = perField((f) => placed(LAYOUT[f].valueBox, placement));
  const fields = perField(() => '');
  const confidence = perField(() => 0);
  // No label at all: whatever is in the picture, it is not the front of a card.
  if (found.size === 0)
    return { fields, confidence, photo, quad, card, temporary: false, valueBoxes, labelsFound: 0 };

  const reads = await readValues(card, placement, signal);
  const { lines } = reads;
  const one = (field: Field) => textOf(lines[field][0] ?? []);

  fields.name = cleanName(one('name'));
  fields.sex = sexOf(one('sex'), reads.views.sex);
  const nation = nationOf(one('nation'), reads.crops.nation.lines[0]);
  fields.nation = nation?.nation ?? '';
  fields.birth = birthOf(reads.birthGroups, one('birth'));
  const addressViews = reads.views.address.map((view) => cleanAddress(view.map(textOf)));
  fields.address = correctDivisions(cleanAddress(lines.address.map(textOf)), addressViews);
  for (const field of ['name', 'sex', 'nation', 'birth', 'address'] as const)
    confidence[field] = confidenceOf(
      field === 'birth' && reads.birthGroups.length > 0 ? reads.birthGroups.flat() : lines[field],
    );
  if (nation) confidence.nation /= 1 + nation.distance;

  const number = normaliseNumber(textOf(lines.id_number[0] ?? []));
  if (number.length === 18) {
    fields.id_number = number;
    confidence.id_number = (checks(number) ? 1 : 0.5) * confidenceOf(lines.id_number);
  }

  for (const field of FIELDS) {
    if (!fields[field]) confidence[field] = 0;
    const found = reads.crops[field].lines;
    if (found.length > 0) valueBoxes[field] = union(found.map((l) => l.box));
  }
  return {
    fields,
    confidence: perField((f) => Math.round(confidence[f])),
    photo,
    quad,
    card,
    temporary: isTemporaryTitle(textOf(reads.title), TEMPORARY_TITLE),
    valueBoxes,
    labelsFound: found.size,
  };
}

/** Reads the card in `photo` as it stands: in the outline found, else in the whole image. */
async function readUpright(photo: Canvas, signal?: AbortSignal): Promise<CardReading> {
  const quad = locateCard(photo);
  const reading = await readRectified(photo, rectify(photo, quad), quad, signal);
  if (quad === null || reading.labelsFound > 0) return reading;
  // The outline found was something else than the card (no label inside it): the whole image may
  // be the card, a scan cropped to it.
  const whole = await readRectified(photo, rectify(photo, null), null, signal);
  return whole.labelsFound > 0 ? whole : reading;
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
