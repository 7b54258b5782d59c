/**
 * The printed photo's own edges near where it is expected (PORTRAIT_BOX, or where the face says
 * it is: face-place.ts). The photo is printed over the card stock and can only darken it, so each
 * edge is a step down into the photo, straight along the whole side: summed along that side, the
 * step stands out of the guilloche texture and the noise even where the photo's background is
 * nearly white. A photo printed opaque (`bothWays`) may be lighter or darker than the stock, or
 * neither: a pale blue backdrop on a lavender stock can match its grey level exactly and differ
 * only in hue, so there an edge is a step of grey or of hue, in either direction. A side whose
 * step does not stand out keeps the place the other sides, the photo's proportions and the
 * expected box imply.
 */
import type { Canvas } from '../../../canvas.js';
import { PORTRAIT_BOX, type Box } from '../../layout.js';
import type { Plane } from '../../plane.js';
import { quantile } from '../planes.js';
import { sampled } from '../sampling.js';

/** How far from the layout's box a printed photo's edge may lie (printer offset plus rectification error). */
export const LAYOUT_SLACK = 18;
/** A step is an edge when its mean over the side is this many grey levels… */
const MIN_STEP = 1.2;
/** …and this many times the typical step of the neighbouring positions. */
const MIN_CONTRAST = 3;

/** Sides are summed over their middle only, this far from the corners a misplaced search could cut. */
const CORNER_INSET = 40;
/** The fewest pixels along a side that an edge is measured over. */
const MIN_SIDE = 8;
/** Rectification leaves the card's scale right to within this share. */
export const LAYOUT_SIZE_TOLERANCE = 0.015;

export interface Expected {
  box: Box;
  /** How far each edge may lie from the box's. */
  slack: number;
  /** How far the photo's size may differ from the box's, as a share. */
  sizeTolerance: number;
  /**
   * Whether an edge may also be a step up into the photo: a photo printed opaque, its light
   * backdrop brighter than the stock, rather than over the stock, which it can only darken.
   */
  bothWays: boolean;
}

const STANDARD: Expected = {
  box: PORTRAIT_BOX,
  slack: LAYOUT_SLACK,
  sizeTolerance: LAYOUT_SIZE_TOLERANCE,
  bothWays: false,
};

/** A photo's height over its width keeps the box's to within this share. */
const PROPORTION_TOLERANCE = 0.06;

/** Whether `found` has the photo's proportions, those of `box`. */
export const inProportion = (found: Box, box: Box = PORTRAIT_BOX) =>
  Math.abs((found.height * box.width) / (found.width * box.height) - 1) <= PROPORTION_TOLERANCE;

/**
 * The planes an edge is sought in: grey for a photo printed over the stock; for an opaque one, grey
 * and the three colours, whose steps beyond the grey one are a change of hue.
 */
const GREY = ['luminance'] as const;
const COLOUR = ['luminance', 'red', 'green', 'blue'] as const;

/** The card's own edge, which a rectification may leave a few pixels of, is no edge of the photo. */
const CARD_EDGE = 8;

interface Side {
  /** Where along the search the step lies, in card pixels, or null when none stands out. */
  at: number | null;
  /** How far the step stands out of its neighbours' typical step. */
  strength: number;
}

/**
 * The steepest darkening step between positions p-1 and p, for p from `from` to `to`. `along`
 * gives the level of plane c at (position, k) for k over the side's length; `inward` is +1 when
 * the photo lies towards higher positions (a left or top edge), -1 otherwise. Without `bothWays`
 * there is one plane, the luminance. With `bothWays` a step up counts too, each plane's step is
 * the median over the side rather than the mean (an edge runs the whole side, while a column of
 * text, labels printed beside the photo all starting at one x, steps only where its characters
 * are), and a position's step is the larger of the grey step and the change of hue (the length
 * of the red, green and blue steps less the grey one): a hue counts where the grey levels match,
 * and does not add the texture of every channel to a grey edge.
 */
function stepOf(
  from: number,
  to: number,
  length: number,
  inward: number,
  along: (p: number, k: number, c: number) => number,
  bothWays: boolean,
): Side {
  const steps: number[] = [];
  const each = new Float32Array(length);
  const stepAt = (p: number, c: number) => {
    for (let k = 0; k < length; k++) {
      const before = along(p - 2, k, c) + along(p - 1, k, c);
      const after = along(p, k, c) + along(p + 1, k, c);
      each[k] = (inward > 0 ? before - after : after - before) / 2;
    }
  };
  for (let p = from; p <= to; p++) {
    if (bothWays) {
      stepAt(p, 0);
      const grey = quantile(each, 0.5);
      // The colour step less its grey part: what a change of hue alone moves.
      let hue = 0;
      for (let c = 1; c < COLOUR.length; c++) {
        stepAt(p, c);
        hue += (quantile(each, 0.5) - grey) ** 2;
      }
      steps.push(Math.max(Math.abs(grey), Math.sqrt(hue)));
    } else {
      stepAt(p, 0);
      steps.push(each.reduce((a, b) => a + b, 0) / length);
    }
  }
  let best = 0;
  for (let i = 1; i < steps.length; i++) if (steps[i]! > steps[best]!) best = i;
  const typical = quantile(steps.map(Math.abs), 0.5);
  const peak = steps[best]!;
  const strength = peak / Math.max(typical, 1e-6);
  return { at: peak >= MIN_STEP && strength >= MIN_CONTRAST ? from + best : null, strength };
}

export interface Bounds extends Box {
  /** Whether the width and the height were each measured by both their edges, rather than implied. */
  widthMeasured: boolean;
  heightMeasured: boolean;
  /** Which of the top and bottom edges stood out (the other may be implied by the width). */
  topFound: boolean;
  bottomFound: boolean;
}

/** The photo's rectangle on `card`, by its four edges. */
export function photoBounds(card: Canvas, expected: Expected = STANDARD): Bounds {
  const { box, slack: SLACK, sizeTolerance, bothWays } = expected;
  const reach = SLACK + 2;
  const x0 = Math.max(0, box.x - reach);
  const y0 = Math.max(0, box.y - reach);
  const region: Box = {
    x: x0,
    y: y0,
    width: Math.min(card.width, box.x + box.width + reach) - x0,
    height: Math.min(card.height, box.y + box.height + reach) - y0,
  };
  const planes = sampled(card, region, region.width, region.height, bothWays ? COLOUR : GREY) as Plane[];
  const { width: w, height: h } = planes[0]!;
  const at = (x: number, y: number, c: number) =>
    planes[c]!.data[Math.max(0, Math.min(h - 1, y - y0)) * w + Math.max(0, Math.min(w - 1, x - x0))]!;
  const inset = CORNER_INSET + SLACK - LAYOUT_SLACK;
  const rows = box.height - 2 * inset;
  const columns = box.width - 2 * inset;
  // A box too small to hold the sides' insets (a small face's framing) has no edges to measure.
  if (rows < MIN_SIDE || columns < MIN_SIDE)
    return { ...box, widthMeasured: false, heightMeasured: false, topFound: false, bottomFound: false };
  const side = (
    from: number,
    to: number,
    limit: number,
    length: number,
    inward: number,
    along: (p: number, k: number, c: number) => number,
  ) => stepOf(Math.max(from, CARD_EDGE), Math.min(to, limit - CARD_EDGE), length, inward, along, bothWays);
  const left = side(box.x - SLACK, box.x + SLACK, card.width, rows, 1, (x, k, c) =>
    at(x, box.y + inset + k, c),
  );
  const right = side(box.x + box.width - SLACK, box.x + box.width + SLACK, card.width, rows, -1, (x, k, c) =>
    at(x, box.y + inset + k, c),
  );
  // The top edge is summed over the columns beside the head only: the crown is a straight step too.
  const beside = Math.round(columns / 4);
  const outer = (k: number) => box.x + inset + (k < beside ? k : columns - 2 * beside + k);
  const top = bothWays
    ? side(box.y - SLACK, box.y + SLACK, card.height, 2 * beside, 1, (y, k, c) => at(outer(k), y, c))
    : side(box.y - SLACK, box.y + SLACK, card.height, columns, 1, (y, k, c) => at(box.x + inset + k, y, c));
  const bottom = side(
    box.y + box.height - SLACK,
    box.y + box.height + SLACK,
    card.height,
    columns,
    -1,
    (y, k, c) => at(box.x + inset + k, y, c),
  );
  const measured = (low: Side, high: Side, size: number) =>
    low.at !== null && high.at !== null && Math.abs(high.at - low.at - size) <= sizeTolerance * size
      ? high.at - low.at
      : undefined;
  // A size measured by both edges of one side gives the other by the photo's proportions.
  let across = measured(left, right, box.width);
  let down = measured(top, bottom, box.height);
  // Both sizes measured but out of the photo's proportions: the weaker pair holds a false edge.
  if (across !== undefined && down !== undefined) {
    const proportion = (down * box.width) / (across * box.height);
    if (Math.abs(proportion - 1) > PROPORTION_TOLERANCE) {
      if (Math.min(left.strength, right.strength) >= Math.min(top.strength, bottom.strength))
        down = undefined;
      else across = undefined;
    }
  }
  const width = across ?? (down === undefined ? box.width : (down * box.width) / box.height);
  const height = down ?? (across === undefined ? box.height : (across * box.height) / box.width);
  // Two sides that disagree with the photo's size: one of them is texture; keep the stronger.
  const span = (low: Side, high: Side, start: number, size: number): [number, number] => {
    if (low.at !== null && high.at !== null) {
      if (Math.abs(high.at - low.at - size) <= sizeTolerance * size) return [low.at, high.at];
      return low.strength >= high.strength ? [low.at, low.at + size] : [high.at - size, high.at];
    }
    if (low.at !== null) return [low.at, low.at + size];
    if (high.at !== null) return [high.at - size, high.at];
    return [start, start + size];
  };
  const [left0, right0] = span(left, right, box.x, Math.round(width));
  const [top0, bottom0] = span(top, bottom, box.y, Math.round(height));
  const x = Math.max(0, left0);
  const y = Math.max(0, top0);
  return {
    x,
    y,
    width: Math.min(card.width, right0) - x,
    height: Math.min(card.height, bottom0) - y,
    widthMeasured: across !== undefined,
    heightMeasured: down !== undefined,
    topFound: top.at !== null,
    bottomFound: bottom.at !== null,
  };
}
