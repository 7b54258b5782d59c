/**
 * Whether the card lies wholly inside the picture. A card outline with a corner beyond the frame
 * says so directly. Whatever the outline, the frame itself is looked at too: where a card
 * runs out of the picture, a side of the frame crosses it, so along that side the picture shows
 * the surface the card lies on, a card edge, a long stretch of card, and its other edge. A whole
 * card photographed leaves only the surface along every side; a scan cropped to the card shows
 * only card.
 */
import type { Canvas } from '../../canvas.js';
import { rectangle, type Quad } from '../warp.js';
import type { Plane } from '../plane.js';
import { sampled } from './sampling.js';

/**
 * Corners this close to the frame's own corners (share of the picture's shorter side, at least
 * 2 px) make the outline the frame itself.
 */
const FRAME_MARGIN = 0.004;
/**
 * A corner further than this (pixels) past the frame is cut off. One on the frame is not: a scan
 * holding the card with a margin of a pixel shows all of it, and where a side of the outline is
 * the frame itself its corners lie on it.
 */
const BEYOND = 1;
/** The strip along each side that is read, as a share of the picture's shorter side. */
const STRIP = 0.008;
/** A card's edge changes the brightness along a side within this share of its length… */
const EDGE_REACH = 0.005;
/** …by at least this share of the brighter of the two sides of the edge… */
const CONTRAST = 0.18;
/** …and a card running out of the frame spans at least this share of the side between its edges… */
const MIN_STRETCH = 0.15;
/** …over most of which it differs from the surface. */
const PLATEAU = 0.8;
/** Steps back and forth within this many reaches are a speck. */
const SPECK = 4;

/**
 * Whether a corner of the outline lies beyond the frame. An outline that is the frame itself (a
 * scan cropped to the card) does not count: the picture is then the whole card.
 */
function cornerOnFrame(image: Canvas, quad: Quad): boolean {
  const margin = Math.max(2, FRAME_MARGIN * Math.min(image.width, image.height));
  const frame = rectangle(image.width, image.height);
  if (quad.every((corner, i) => Math.hypot(corner.x - frame[i]!.x, corner.y - frame[i]!.y) <= margin))
    return false;
  return quad.some(
    ({ x, y }) => x < -BEYOND || y < -BEYOND || x > image.width + BEYOND || y > image.height + BEYOND,
  );
}

type Side = 'top' | 'bottom' | 'left' | 'right';

/** Luminance along one side of the frame, each position the mean over the strip's depth. */
function sideProfile(image: Canvas, side: Side): Float32Array {
  const across = side === 'top' || side === 'bottom';
  const depth = Math.max(2, Math.round(STRIP * Math.min(image.width, image.height)));
  const box = {
    x: side === 'right' ? image.width - depth : 0,
    y: side === 'bottom' ? image.height - depth : 0,
    width: across ? image.width : depth,
    height: across ? depth : image.height,
  };
  const [profile] = sampled(image, box, across ? image.width : 1, across ? 1 : image.height, [
    'luminance',
  ]) as [Plane];
  return profile.data;
}

/**
 * Whether the side crosses a card: a sharp step one way, a long stretch, and a sharp step back
 * (the card's two edges). Uneven light and the card's shadow change the surface slowly; a card's
 * edge changes it within a few pixels.
 */
function crossesCard(profile: Float32Array): boolean {
  const n = profile.length;
  const reach = Math.max(3, Math.round(EDGE_REACH * n));
  const mean = (from: number, to: number) => {
    let sum = 0;
    for (let k = from; k < to; k++) sum += profile[k]!;
    return sum / (to - from);
  };
  // The strongest step of each run of steps, with its sign.
  const steps: { at: number; sign: number }[] = [];
  let best = { at: -1, size: 0, sign: 0 };
  for (let k = reach; k <= n - reach; k++) {
    const before = mean(k - reach, k);
    const after = mean(k, k + reach);
    const size = Math.abs(after - before) / Math.max(before, after, 1);
    if (size >= CONTRAST) {
      if (size > best.size) best = { at: k, size, sign: Math.sign(after - before) };
    } else if (best.at >= 0) {
      steps.push({ at: best.at, sign: best.sign });
      best = { at: -1, size: 0, sign: 0 };
    }
  }
  if (best.at >= 0) steps.push({ at: best.at, sign: best.sign });
  // A step down and straight back up (or up and down) is a speck of dirt or toner, not an edge.
  const edges = steps.filter(
    (step, i) =>
      !steps.some(
        (other, j) => j !== i && other.sign === -step.sign && Math.abs(other.at - step.at) < SPECK * reach,
      ),
  );
  // Between the two edges the card: most of the stretch differs from the surface on both sides.
  const isCard = (a: number, b: number) => {
    const surface = (mean(a - reach, a) + mean(b, Math.min(n, b + reach))) / 2;
    let differing = 0;
    for (let k = a; k < b; k++)
      if (Math.abs(profile[k]! - surface) >= CONTRAST * Math.max(profile[k]!, surface, 1)) differing++;
    return differing >= PLATEAU * (b - a);
  };
  return edges.some((a, i) =>
    edges
      .slice(i + 1)
      .some((b) => b.sign === -a.sign && b.at - a.at >= MIN_STRETCH * n && isCard(a.at, b.at)),
  );
}

export function isCutOff(image: Canvas, quad: Quad | null): boolean {
  if (quad !== null && cornerOnFrame(image, quad)) return true;
  return (['top', 'bottom', 'left', 'right'] as const).some((side) => crossesCard(sideProfile(image, side)));
}
