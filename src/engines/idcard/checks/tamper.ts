/**
 * A pasted-over value: someone covered a printed value with a piece of other paper and printed
 * another value on it. The paper gives it away: its tone is not the card's tone right beside it,
 * and it lacks the fine guilloche that runs under every genuine value. For each value the
 * background between the letters is compared with bands of card just above and below the text
 * (the stock changes slowly across a card, so those bands are what the background should be).
 */
import type { Canvas } from '../../canvas.js';
import { FIELDS, type Box, type Field } from '../layout.js';
import { Paper } from './paper.js';
import type { Plane } from '../plane.js';
import { boxBlur, levelQuantile } from './planes.js';

/** Room around a value box for the bands. */
const MARGIN = 34;
/**
 * The bands of card compared with the inside lie this far above and below the text's bounding
 * box: beyond where a patch's margin ends (a patch is as wide as the longer of the two values,
 * so only above and below is it sure to end close to the text).
 */
const BANDS: [number, number] = [16, 30];
/** Fewest paper pixels in each band, and between the strokes inside, for any comparison. */
const MIN_PIXELS = 50;
const MIN_INSIDE = 120;
/**
 * Texture is compared only under text at least this many times as wide as it is high (two
 * characters or more): between the strokes of one character (the sex, 男 or 女) the paper is too
 * little for a steady measure, and on clean cards its ratio ranged from 0.01 to 1.8.
 */
const MIN_TEXTURE_SPAN = 1.6;
/** Card paper this smooth (fine detail, grey levels) has no guilloche to miss: a copy's blown-out white. */
const MIN_TEXTURE = 0.8;
/** Ink is darker than this share of the region's paper's brightness… */
const INK = 0.8;
/** …and type darker than this share, at least MIN_TYPE pixels of it in a row or column of the value box. */
const TYPE = 0.55;
const MIN_TYPE = 2;
/** Pixels this close to ink are neither paper nor ink (antialiasing, blur). */
const INK_HALO = 3;

export interface PatchEvidence {
  /** Colour difference between the paper inside and the bands (the lesser of the two), over the band's brightness. */
  toneStep: number;
  /** Fine texture of the paper inside over that of the bands (guilloche: about 1; a flat patch: well below). */
  textureRatio: number;
}

/** The background evidence for one value, or null when the box holds no text. */
export function patchEvidence(card: Canvas, value: Box): PatchEvidence | null {
  // Readers report boxes in fractional pixels; the evidence is gathered on whole ones.
  const box = {
    x: Math.round(value.x),
    y: Math.round(value.y),
    width: Math.round(value.width),
    height: Math.round(value.height),
  };
  if (box.width < 4 || box.height < 4) return null;
  const x0 = Math.max(0, box.x - MARGIN);
  const y0 = Math.max(0, box.y - MARGIN);
  const x1 = Math.min(card.width, box.x + box.width + MARGIN);
  const y1 = Math.min(card.height, box.y + box.height + MARGIN);
  const width = x1 - x0;
  const height = y1 - y0;
  const { data } = card;
  const grey: Plane = { width, height, data: new Float32Array(width * height) };
  for (let y = 0; y < height; y++)
    for (let x = 0, o = ((y0 + y) * card.width + x0) * 4; x < width; x++, o += 4)
      grey.data[y * width + x] = 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
  const paperLevel = levelQuantile(grey.data, 0.9);
  const ink: Plane = { width, height, data: grey.data.map((v) => (v < INK * paperLevel ? 1 : 0)) };
  const nearInk = boxBlur(ink, INK_HALO);

  // The text's bounding box: rows and columns of the value box that hold some type (stray dark
  // pixels where guilloche lines cross, or a patch's seam, are not type).
  const rows = new Uint16Array(height);
  const columns = new Uint16Array(width);
  for (let y = Math.max(0, box.y - y0); y < Math.min(height, box.y + box.height - y0); y++)
    for (let x = Math.max(0, box.x - x0); x < Math.min(width, box.x + box.width - x0); x++)
      if (grey.data[y * width + x]! < TYPE * paperLevel) {
        rows[y]!++;
        columns[x]!++;
      }
  const first = (counts: Uint16Array) => counts.findIndex((n) => n >= MIN_TYPE);
  const last = (counts: Uint16Array) =>
    counts.length - 1 - [...counts].reverse().findIndex((n) => n >= MIN_TYPE);
  const [left, right, top, bottom] = [first(columns), last(columns), first(rows), last(rows)];
  if (left < 0 || top < 0 || right - left < 10) return null;

  const smooth = boxBlur(grey, 2);
  const inside = new Paper();
  const above = new Paper();
  const below = new Paper();
  for (let y = 0; y < height; y++)
    for (let x = left; x <= right; x++) {
      const i = y * width + x;
      if (nearInk.data[i]! > 0) continue;
      const paper =
        y >= top && y <= bottom
          ? inside
          : top - y >= BANDS[0] && top - y <= BANDS[1]
            ? above
            : y - bottom >= BANDS[0] && y - bottom <= BANDS[1]
              ? below
              : null;
      paper?.add(data, ((y0 + y) * card.width + x0 + x) * 4, Math.abs(grey.data[i]! - smooth.data[i]!));
    }
  if (inside.size < MIN_INSIDE || above.size < MIN_PIXELS || below.size < MIN_PIXELS) return null;
  // Both bands must disagree with the inside: one alone may cross another value or a label.
  const step = (band: Paper) =>
    Math.hypot(...[0, 1, 2].map((c) => inside.level(c) - band.level(c))) /
    Math.max(1, band.level(0), band.level(1), band.level(2));
  const around = (above.texture() + below.texture()) / 2;
  return {
    toneStep: Math.min(step(above), step(below)),
    textureRatio:
      around >= MIN_TEXTURE && right - left + 1 >= MIN_TEXTURE_SPAN * (bottom - top + 1)
        ? inside.texture() / around
        : 1,
  };
}

/** A value whose paper is off the card's tone by this share of its brightness is on other paper… */
const TONE_STEP = 0.12;
/** …as is one whose paper is this much smoother than the card around it (no guilloche under it). */
const FLAT = 0.12;

export function isTampered(card: Canvas, valueBoxes: Record<Field, Box>): boolean {
  return FIELDS.some((field) => {
    const evidence = patchEvidence(card, valueBoxes[field]);
    return evidence !== null && (evidence.toneStep >= TONE_STEP || evidence.textureRatio <= FLAT);
  });
}
