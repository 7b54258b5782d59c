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

/**
 * Dark runs along a row longer than this many line heights are no print of a value (a
 * character's longest stroke is about one): the clothes at the foot of a photo printed over the
 * number's line.
 */
const LONGEST_STROKE = 1.5;

/** The raster with every row's dark runs longer than `longest` turned to paper. */
function withoutSolids(raster: GreyRaster, tones: Tones, longest: number): GreyRaster {
  const threshold = (tones.paper + tones.ink) / 2;
  const { width, height } = raster;
  const data = Uint8Array.from(raster.data);
  for (let y = 0; y < height; y++) {
    let start = 0;
    for (let x = 0; x <= width; x++) {
      if (x < width && data[y * width + x]! < threshold) continue;
      if (x - start > longest) data.fill(tones.paper, y * width + start, y * width + x);
      start = x + 1;
    }
  }
  return { width, height, data };
}

/** The widest gap within a line of the address, in line heights. */
const ADDRESS_GAP = 1;

/**
 * The lines of a value set flush left (the address): its lines start where its fullest line
 * starts, to within this many line heights. A band starting further off is not a line of it: the
 * edge or corner of a photo printed close beside the value, found as a short "line" at the far
 * end of the region and read as a character after the address's last one.
 */
const FLUSH = 1;

/** `lines` without those that do not start where the fullest of them starts. */
export function flushLeft(lines: readonly TextLine[], textHeight: number): TextLine[] {
  const fullest = lines.reduce<TextLine | undefined>((a, l) => (a && a.mass >= l.mass ? a : l), undefined);
  if (!fullest) return [];
  return lines.filter((line) => Math.abs(line.x - fullest.x) <= FLUSH * textHeight);
}

/** The lines of print in `region` (card coordinates), at most `count`, cut out for recognition. */
function cropsIn(
  card: Canvas,
  region: Box,
  count: number,
  scale: number,
  ink: Ink,
  solids = false,
  widestGap?: number,
): ValueCrops {
  const grey = regionOf(card, region, ink);
  const tones = tonesOf(grey);
  const raster = solids ? withoutSolids(grey, tones, LONGEST_STROKE * TEXT_HEIGHT * scale) : grey;
  const found = textLines(raster, tones, TEXT_HEIGHT * scale, widestGap);
  const lines =
    count === 1
      ? [mainLine(found, region)].filter((l) => l !== undefined)
      : flushLeft(found, TEXT_HEIGHT * scale).slice(0, count);
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

/**
 * The value's crops. The number, whose print runs into the side of its region (a printer that
 * shifted it, cutting its first digit into another), is cut again from a region widened on that
 * side by a character or so: its label lies further off than that, and is not black.
 */
export function valueCrops(card: Canvas, field: Field, placement: Placement): ValueCrops {
  const { lines: count } = LAYOUT[field];
  const { scale } = placement;
  const number = field === 'id_number';
  const region = regionFor(field, placement);
  // The address is set without spaces: a gap of a character ends its line (beyond it, the
  // corner of a photo printed close beside it).
  const gap = field === 'address' ? ADDRESS_GAP : undefined;
  const crops = cropsIn(card, region, count, scale, 'black', number, gap);
  if (field === 'address') return widenedToItsPrint(card, crops, count, scale);
  const line = crops.lines[0];
  if (!number || !line) return crops;
  const grow = TEXT_HEIGHT * scale;
  const margin = Math.round(6 * scale);
  const left = line.box.x + margin <= region.x + 1 && region.x > 0 ? grow : 0;
  const right =
    line.box.x + line.box.width - margin >= region.x + region.width - 1 &&
    region.x + region.width < card.width
      ? grow
      : 0;
  if (left === 0 && right === 0) return crops;
  const wider = { ...region, x: region.x - left, width: region.width + left + right };
  return cropsIn(card, wider, count, scale, 'black', number);
}

/**
 * How many times, at most, the address's region is widened by a character on its right: a
 * printer whose photo stands further right than the standard layout's runs the address's
 * lines on past the standard column, up to its own photo.
 */
const ADDRESS_WIDENINGS = 3;

/** A run of ink down a column this many line heights long is no character's: it is a photo's. */
const TALLEST_INK = 1.4;

/**
 * The first column of `strip` (card coordinates) with a run of ink down it longer than any
 * character's, or null: where a photo printed beside the value begins (its clothes, its hair).
 */
function photoEdge(card: Canvas, strip: Box, tones: Tones, scale: number): number | null {
  const grey = regionOf(card, strip, 'black');
  const threshold = (tones.paper + tones.ink) / 2;
  const tallest = TALLEST_INK * TEXT_HEIGHT * scale;
  for (let x = 0; x < grey.width; x++) {
    let run = 0;
    for (let y = 0; y < grey.height; y++) {
      run = grey.data[y * grey.width + x]! < threshold ? run + 1 : 0;
      if (run > tallest) return strip.x + x;
    }
  }
  return null;
}

/**
 * The address's crops, its region widened on the right by a character at a time while a line's
 * print ends less than a line's gap (ADDRESS_GAP) short of the region's right side: the line may
 * go on beyond it (a character cut there would be lost, or read as another). The widening stops
 * short of a photo (ink running down a column longer than a character's), whose clothes or hair
 * would otherwise be taken for lines of print; beyond the print, the line ends at its gap, and a
 * photo's corner there is not a line set flush with the address (flushLeft).
 */
function widenedToItsPrint(card: Canvas, crops: ValueCrops, count: number, scale: number): ValueCrops {
  const margin = Math.round(6 * scale);
  const gap = ADDRESS_GAP * TEXT_HEIGHT * scale;
  let found = crops;
  for (let k = 0; k < ADDRESS_WIDENINGS; k++) {
    const { region } = found;
    const right = region.x + region.width;
    // A line ending less than a gap short of the side may go on beyond it.
    const cut = found.lines.some((line) => line.box.x + line.box.width - margin >= right - gap);
    if (!cut || right >= card.width || found.lines.length === 0) break;
    const added = { ...region, x: right, width: Math.min(card.width - right, TEXT_HEIGHT * scale) };
    const edge = photoEdge(card, added, found.lines[0]!.tones, scale);
    const end = edge === null ? added.x + added.width : edge - margin;
    if (end <= right) break;
    found = cropsIn(card, { ...region, width: end - region.x }, count, scale, 'black', false, ADDRESS_GAP);
    if (edge !== null) break;
  }
  return found;
}

/** The place of the temporary card's title, read in any colour of print. */
export function titleCrops(card: Canvas, placement: Placement): ValueCrops {
  const box = placed(TEMPORARY_TITLE_BOX, placement);
  return cropsIn(card, box, 1, placement.scale, 'any');
}
