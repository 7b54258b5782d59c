/**
 * The printed photo's own edges near PORTRAIT_BOX. The photo is printed over the card stock and
 * can only darken it, so each edge is a step down into the photo, straight along the whole side:
 * summed along that side, the step stands out of the guilloche texture and the noise even where
 * the photo's background is nearly white. A side whose step does not stand out keeps the place
 * the other sides and the layout imply.
 */
import type { Canvas } from '../../../canvas.js';
import { PORTRAIT_BOX, type Box } from '../../layout.js';
import type { Plane } from '../../plane.js';
import { quantile } from '../planes.js';
import { sampled } from '../sampling.js';

/** How far from the layout's box a printed photo's edge may lie (printer offset plus rectification error). */
const SLACK = 18;
/** A step is an edge when its mean over the side is this many grey levels… */
const MIN_STEP = 1.2;
/** …and this many times the typical step of the neighbouring positions. */
const MIN_CONTRAST = 3;

/** Sides are summed over their middle only, this far from the corners a misplaced search could cut. */
const CORNER_INSET = 40;
/** Rectification leaves the card's scale right to within this share. */
const SIZE_TOLERANCE = 0.015;

interface Side {
  /** Where along the search the step lies, in card pixels, or null when none stands out. */
  at: number | null;
  /** How far the step stands out of its neighbours' typical step. */
  strength: number;
}

/**
 * The steepest darkening step between positions p-1 and p, for p from `from` to `to`. `along`
 * gives the luminance at (position, k) for k over the side's length; `inward` is +1 when the
 * photo lies towards higher positions (a left or top edge), -1 otherwise.
 */
function stepOf(
  from: number,
  to: number,
  length: number,
  inward: number,
  along: (p: number, k: number) => number,
): Side {
  const steps: number[] = [];
  for (let p = from; p <= to; p++) {
    let sum = 0;
    for (let k = 0; k < length; k++) {
      const before = along(p - 2, k) + along(p - 1, k);
      const after = along(p, k) + along(p + 1, k);
      sum += inward > 0 ? before - after : after - before;
    }
    steps.push(sum / (2 * length));
  }
  let best = 0;
  for (let i = 1; i < steps.length; i++) if (steps[i]! > steps[best]!) best = i;
  const typical = quantile(steps.map(Math.abs), 0.5);
  const peak = steps[best]!;
  const strength = peak / Math.max(typical, 1e-6);
  return { at: peak >= MIN_STEP && strength >= MIN_CONTRAST ? from + best : null, strength };
}

/** The photo's rectangle on `card`, by its four edges. */
export function photoBounds(card: Canvas): Box {
  const box = PORTRAIT_BOX;
  const reach = SLACK + 2;
  const x0 = Math.max(0, box.x - reach);
  const y0 = Math.max(0, box.y - reach);
  const region: Box = {
    x: x0,
    y: y0,
    width: Math.min(card.width, box.x + box.width + reach) - x0,
    height: Math.min(card.height, box.y + box.height + reach) - y0,
  };
  const [grey] = sampled(card, region, region.width, region.height, ['luminance']) as [Plane];
  const at = (x: number, y: number) =>
    grey.data[
      Math.max(0, Math.min(grey.height - 1, y - y0)) * grey.width +
        Math.max(0, Math.min(grey.width - 1, x - x0))
    ]!;
  const inset = CORNER_INSET;
  const rows = box.height - 2 * inset;
  const columns = box.width - 2 * inset;
  const left = stepOf(box.x - SLACK, box.x + SLACK, rows, 1, (x, k) => at(x, box.y + inset + k));
  const right = stepOf(box.x + box.width - SLACK, box.x + box.width + SLACK, rows, -1, (x, k) =>
    at(x, box.y + inset + k),
  );
  const top = stepOf(box.y - SLACK, box.y + SLACK, columns, 1, (y, k) => at(box.x + inset + k, y));
  const bottom = stepOf(box.y + box.height - SLACK, box.y + box.height + SLACK, columns, -1, (y, k) =>
    at(box.x + inset + k, y),
  );
  // Two sides that disagree with the photo's known size: one of them is texture; keep the stronger.
  const span = (low: Side, high: Side, start: number, size: number): [number, number] => {
    if (low.at !== null && high.at !== null) {
      if (Math.abs(high.at - low.at - size) <= SIZE_TOLERANCE * size) return [low.at, high.at];
      return low.strength >= high.strength ? [low.at, low.at + size] : [high.at - size, high.at];
    }
    if (low.at !== null) return [low.at, low.at + size];
    if (high.at !== null) return [high.at - size, high.at];
    return [start, start + size];
  };
  const [left0, right0] = span(left, right, box.x, box.width);
  const [top0, bottom0] = span(top, bottom, box.y, box.height);
  const x = Math.max(0, left0);
  const y = Math.max(0, top0);
  return { x, y, width: Math.min(card.width, right0) - x, height: Math.min(card.height, bottom0) - y };
}
