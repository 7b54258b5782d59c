/**
 * Where the holder's photo is on a card whose printer put it elsewhere, or at another size, than
 * the standard layout: found from the face itself. Skin is the one large patch of the card that
 * is warm in colour (the stock, the blue labels, the black text and the photo's light backdrop
 * are not); the colours are first balanced on the card's paper, so that a warm light or a
 * camera's colour cast does not make the stock look like skin. The middle of the largest warm
 * patch is where an ID photo's face is, and the photo is placed around it by the framing that
 * the ID-photo standard fixes.
 */
import type { Canvas } from '../../../canvas.js';
import { PORTRAIT_BOX, type Box } from '../../layout.js';
import { partsOf } from '../parts.js';
import { quantile } from '../planes.js';

/** The card is searched at a quarter of its pixels. */
const STEP = 2;
/** The face's middle lies this far below the photo's top, in parts of its height (as framed by the standard). */
export const FACE_MIDDLE = 212 / 400;
/** A patch smaller than this share of the photo's area is not a face. */
const MIN_FACE_SHARE = 0.08;

/** Skin after the colours are balanced on the paper: warm, neither washed out nor dark, and not the deep red of a garment. */
function isSkin(r: number, g: number, b: number): boolean {
  const luminance = 0.299 * r + 0.587 * g + 0.114 * b;
  return luminance > 70 && luminance < 232 && r - b > 22 && r >= g && g >= 0.6 * r && g >= 0.85 * b;
}

export interface FacePlace {
  /** The photo's box at the standard size, framed around the face. */
  box: Box;
  /** The face's middle (the warm patch's centre of mass). */
  x: number;
  y: number;
}

/** Where the face is and the box the photo most likely fills; null when no face-sized warm patch is found. */
export function facePlace(card: Canvas): FacePlace | null {
  const { data } = card;
  const width = Math.floor(card.width / STEP);
  const height = Math.floor(card.height / STEP);
  // The paper: a bright quantile of each channel over the card, which is mostly stock.
  const channels = [0, 1, 2].map((c) => {
    const values = new Float32Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        values[y * width + x] = data[(y * STEP * card.width + x * STEP) * 4 + c]!;
    return 240 / Math.max(1, quantile(values, 0.75));
  }) as [number, number, number];
  const skin = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * STEP * card.width + x * STEP) * 4;
      skin[y * width + x] = isSkin(
        data[i]! * channels[0],
        data[i + 1]! * channels[1],
        data[i + 2]! * channels[2],
      )
        ? 1
        : 0;
    }
  const { label, sizes } = partsOf(skin, width);
  let largest = 0;
  for (let part = 1; part < sizes.length; part++) if (sizes[part]! > (sizes[largest] ?? 0)) largest = part;
  const minimum = (MIN_FACE_SHARE * PORTRAIT_BOX.width * PORTRAIT_BOX.height) / (STEP * STEP);
  if (largest === 0 || sizes[largest]! < minimum) return null;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < label.length; i++)
    if (label[i] === largest) {
      sx += i % width;
      sy += Math.floor(i / width);
    }
  const cx = (STEP * sx) / sizes[largest]!;
  const cy = (STEP * sy) / sizes[largest]!;
  const { width: w, height: h } = PORTRAIT_BOX;
  return {
    box: { x: Math.round(cx - w / 2), y: Math.round(cy - FACE_MIDDLE * h), width: w, height: h },
    x: cx,
    y: cy,
  };
}
