/**
 * Anchoring on the printed labels: where 姓名, 性别, 民族, 出生, 住址 and 公民身份号码 were read
 * on the rectified card says how this card's print is shifted and scaled against LAYOUT (another
 * printer, a rectification a little off), and the value boxes are placed from that. A label not
 * read still gets its value box, from the labels that were.
 */
import { FIELDS, LAYOUT, type Box, type Field } from '../layout.js';

/** A character of a printed label as read, with where it is on the rectified card. */
export interface LabelChar {
  char: string;
  /** The recogniser's confidence, 0–100. */
  confidence: number;
  box: Box;
}

/** Card position = scale × layout position + offset, the same scale across and down. */
export interface Placement {
  scale: number;
  dx: number;
  dy: number;
}

export interface Anchoring {
  placement: Placement;
  /** The fields whose label was read. */
  found: ReadonlySet<Field>;
}

const IDENTITY: Placement = { scale: 1, dx: 0, dy: 0 };

export function placed(box: Box, placement: Placement): Box {
  return {
    x: box.x * placement.scale + placement.dx,
    y: box.y * placement.scale + placement.dy,
    width: box.width * placement.scale,
    height: box.height * placement.scale,
  };
}

interface Sighting {
  field: Field;
  /** Centre height of the label's characters on the card, and where LAYOUT has it. */
  y: number;
  expectedY: number;
  /** Left edge of the label's first character, when that character was read. */
  x?: number;
  expectedX: number;
}

/** The label of `field` among the glyphs near where `placement` puts it, if enough of it was read. */
function sight(
  field: Field,
  glyphs: readonly LabelChar[],
  placement: Placement,
  reach: number,
): Sighting | undefined {
  const { label, labelBox } = LAYOUT[field];
  const box = placed(labelBox, placement);
  const near = glyphs.filter((g) => {
    const cx = g.box.x + g.box.width / 2;
    const cy = g.box.y + g.box.height / 2;
    return (
      cx >= box.x - reach &&
      cx <= box.x + box.width + reach / 2 &&
      cy >= box.y - reach / 2 &&
      cy <= box.y + box.height + reach / 2
    );
  });
  const matched = [...label]
    .map((char) => near.find((g) => g.char === char))
    .filter((g): g is LabelChar => g !== undefined);
  const enough = matched.length >= Math.ceil(label.length / 2);
  // A lone character is a weak sighting: believe it only when read with confidence.
  if (!enough || (matched.length === 1 && matched[0]!.confidence < 60)) return undefined;
  const y = matched.reduce((sum, g) => sum + g.box.y + g.box.height / 2, 0) / matched.length;
  const first = near.find((g) => g.char === label[0]);
  return {
    field,
    y,
    expectedY: labelBox.y + labelBox.height / 2,
    expectedX: labelBox.x,
    ...(first ? { x: first.box.x } : {}),
  };
}

/** Least-squares scale and offsets from the sightings, the scale held within printers' range. */
function fit(sightings: readonly Sighting[]): Placement {
  const ys = sightings.map((s) => [s.expectedY, s.y] as const);
  const xs = sightings.flatMap((s) => (s.x === undefined ? [] : [[s.expectedX, s.x] as const]));
  const mean = (pairs: readonly (readonly [number, number])[], k: 0 | 1) =>
    pairs.reduce((sum, p) => sum + p[k], 0) / pairs.length;
  let scale = 1;
  const spread = ys.length >= 2 ? Math.max(...ys.map((p) => p[0])) - Math.min(...ys.map((p) => p[0])) : 0;
  if (spread > 100) {
    // Scale from the vertical spread of the labels (the x positions barely differ).
    const my = mean(ys, 0);
    const oy = mean(ys, 1);
    let num = 0;
    let den = 0;
    for (const [e, o] of ys) {
      num += (e - my) * (o - oy);
      den += (e - my) * (e - my);
    }
    scale = Math.max(0.85, Math.min(1.15, num / den));
  }
  const dy = mean(ys, 1) - scale * mean(ys, 0);
  // Without a first character read, the labels' left edge is taken to stay where LAYOUT has it.
  const left = LAYOUT.name.labelBox.x;
  const dx = xs.length > 0 ? mean(xs, 1) - scale * mean(xs, 0) : (1 - scale) * left;
  return { scale, dx, dy };
}

/** Where the labels are on the rectified card, from their characters as read on it. */
export function anchor(glyphs: readonly LabelChar[]): Anchoring {
  let placement = IDENTITY;
  let sightings: Sighting[] = [];
  // First near LAYOUT's places with a wide reach, then again from the fitted placement.
  for (const reach of [70, 30]) {
    sightings = FIELDS.flatMap((field) => sight(field, glyphs, placement, reach) ?? []);
    if (sightings.length === 0) return { placement: IDENTITY, found: new Set() };
    placement = fit(sightings);
    const residual = (s: Sighting) => Math.abs(placement.scale * s.expectedY + placement.dy - s.y);
    const consistent = sightings.filter((s) => residual(s) <= 15);
    if (consistent.length < sightings.length && consistent.length > 0) placement = fit(consistent);
  }
  return { placement, found: new Set(sightings.map((s) => s.field)) };
}
