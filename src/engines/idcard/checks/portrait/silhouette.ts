/**
 * The silhouette of a head and shoulders from the pixels that differ from a photo's background:
 * specks dropped, the outline's gaps bridged, whatever it encloses filled in, and of what remains
 * the largest part kept.
 */
import { partsOf } from '../parts.js';

/** The set grown by a square of half-size `radius` (a binary dilation, by running counts). */
function grown(set: Uint8Array, radius: number, width: number, height: number): Uint8Array {
  const across = new Uint8Array(set.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let count = 0;
    for (let x = 0; x < Math.min(radius, width); x++) count += set[row + x]!;
    for (let x = 0; x < width; x++) {
      if (x + radius < width) count += set[row + x + radius]!;
      if (x - radius - 1 >= 0) count -= set[row + x - radius - 1]!;
      across[row + x] = count > 0 ? 1 : 0;
    }
  }
  const out = new Uint8Array(set.length);
  for (let x = 0; x < width; x++) {
    let count = 0;
    for (let y = 0; y < Math.min(radius, height); y++) count += across[y * width + x]!;
    for (let y = 0; y < height; y++) {
      if (y + radius < height) count += across[(y + radius) * width + x]!;
      if (y - radius - 1 >= 0) count -= across[(y - radius - 1) * width + x]!;
      out[y * width + x] = count > 0 ? 1 : 0;
    }
  }
  return out;
}

/** Gaps in a head's outline up to twice this wide are bridged before the enclosed part is filled. */
const BRIDGE = 4;
/** Parts of the differing pixels smaller than this (working pixels) are specks, not outline. */
const MIN_PART = 40;

/**
 * The foreground with whatever the background cannot reach from the photo's top and sides added:
 * the middle of a pale face against a pale background (or in a greyscale copy) differs too little
 * to stand out by itself, but its outline, hair and neck enclose it. The walls are thickened
 * first, so that a faint stretch of outline does not let the background in, and the background
 * reached is grown back by as much afterwards. Of what remains, the largest part is the head and
 * shoulders; specks of print elsewhere are dropped.
 */
export function headAndShoulders(differs: Uint8Array, width: number, height: number): Uint8Array {
  // Specks (print texture, grain) are dropped first: thickened, they would wall off background.
  const specks = partsOf(differs, width);
  const solid = differs.map((d, i) => (d && specks.sizes[specks.label[i]!]! >= MIN_PART ? 1 : 0));
  const open = grown(solid, BRIDGE, width, height).map((wall) => 1 - wall);
  const { label } = partsOf(open, width);
  const outer = new Set<number>();
  for (let x = 0; x < width; x++) outer.add(label[x]!);
  for (let y = 0; y < height; y++) {
    outer.add(label[y * width]!);
    outer.add(label[y * width + width - 1]!);
  }
  outer.delete(0);
  const reached = new Uint8Array(label.length);
  for (let i = 0; i < label.length; i++) reached[i] = outer.has(label[i]!) ? 1 : 0;
  const background = grown(reached, BRIDGE, width, height);
  const filled = background.map((b, i) => (b && !solid[i] ? 0 : 1));
  const parts = partsOf(filled, width);
  let largest = 0;
  for (let part = 1; part < parts.sizes.length; part++)
    if (parts.sizes[part]! > (parts.sizes[largest] ?? 0)) largest = part;
  return filled.map((_, i) => (largest > 0 && parts.label[i] === largest ? 1 : 0));
}
