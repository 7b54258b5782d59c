/**
 * The crops Tesseract reads: for each field, the region around its anchored value box and the
 * lines of print found in it, each cut out with a margin of the card around it.
 */
import type { Canvas } from '../../canvas.js';
import { CARD_WIDTH, LAYOUT, PORTRAIT_BOX, TEMPORARY_TITLE_BOX, type Box, type Field } from '../layout.js';
import { placed, type Placement } from './anchor.js';
import { cropOf, regionOf, tonesOf, type Ink, type Tones } from './raster.js';
import { textLines, type TextLine } from './text-lines.js';
import type { GreyRaster } from './tesseract.js';

/** Height of a line of value characters on the canonical card. */
export const TEXT_HEIGHT = 36;

export interface LineCrop {
  /** The line as printed, with a margin of the card around it. */
  raster: GreyRaster;
  /** Paper and ink levels of the region the line was found in. */
  tones: Tones;
  /** Where the line is on the card. */
  box: Box;
}

export interface ValueCrops {
  /** The region searched for the value (the anchored value box with room around it). */
  region: Box;
  lines: LineCrop[];
}

/** The smallest box holding all of `boxes`. */
export function union(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Ink covering more of a band than this is a solid area (the clothes at a photo's foot), not print. */
const SOLID = 0.65;

/** The most likely line of a one-line value: much ink, near the middle of where it should be, and not solid. */
function mainLine(lines: readonly TextLine[], region: Box): TextLine | undefined {
  const middle = region.height / 2;
  let best: TextLine | undefined;
  let bestScore = 0;
  for (const line of lines) {
    if (line.mass > SOLID * line.width * line.height) continue;
    const offset = Math.abs(line.y + line.height / 2 - middle) / region.height;
    const score = line.mass * (1 - offset);
    if (score > bestScore) {
      bestScore = score;
      best = line;
    }
  }
  return best;
}

/** The lines of print in `box` (card coordinates), at most `count`, cut out for recognition. */
function cropsIn(card: Canvas, region: Box, count: number, scale: number, ink: Ink): ValueCrops {
  const raster = regionOf(card, region, ink);
  const tones = tonesOf(raster);
  const found = textLines(raster, tones, TEXT_HEIGHT * scale);
  const lines =
    count === 1 ? [mainLine(found, region)].filter((l) => l !== undefined) : found.slice(0, count);
  const margin = Math.round(6 * scale);
  return {
    region,
    lines: lines.map((line) => {
      const within: Box = {
        x: line.x - margin,
        y: line.y - margin,
        width: line.width + 2 * margin,
        height: line.height + 2 * margin,
      };
      return {
        raster: cropOf(raster, within),
        tones,
        box: { ...within, x: within.x + region.x, y: within.y + region.y },
      };
    }),
  };
}

/** The number's search region ends this far short of the card's right edge. */
const NUMBER_EDGE = 8;

/** The search region of a field's value: its anchored box, taller by a margin, kept off the portrait. */
function regionFor(field: Field, placement: Placement): Box {
  const box = placed(LAYOUT[field].valueBox, placement);
  const grow = 14 * placement.scale;
  const portrait = placed(PORTRAIT_BOX, placement);
  const x = box.x - 10 * placement.scale;
  let right = box.x + box.width + 10 * placement.scale;
  // Values printed left of the portrait stop short of it; the number, below it, may run on to
  // the card's edge (a printer's wider spacing).
  if (box.x < portrait.x && box.y < portrait.y + portrait.height) right = Math.min(right, portrait.x - 4);
  else if (field === 'id_number') right = Math.max(right, CARD_WIDTH - NUMBER_EDGE);
  return { x, y: box.y - grow, width: right - x, height: box.height + 2 * grow };
}

export function valueCrops(card: Canvas, field: Field, placement: Placement): ValueCrops {
  return cropsIn(card, regionFor(field, placement), LAYOUT[field].lines, placement.scale, 'black');
}

/** The place of the temporary card's title, read in any colour of print. */
export function titleCrops(card: Canvas, placement: Placement): ValueCrops {
  const box = placed(TEMPORARY_TITLE_BOX, placement);
  return cropsIn(card, box, 1, placement.scale, 'any');
}
