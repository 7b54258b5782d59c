/**
 * The colours that stay with a person from photo to photo: the skin of the cheeks and the hair
 * of the crown, each the median of its region (robust to the nose line, a brow or a stray
 * highlight), measured against the background in each channel so that exposure and a colour
 * cast drop out.
 */
import { quantile } from '../planes.js';
import type { Head } from './head.js';

export type Rgb = [number, number, number];

export interface Tones {
  skin: Rgb;
  hair: Rgb;
  /** Whether the photo carries colour at all: skin is always redder than it is blue, a greyscale copy's is not. */
  coloured: boolean;
  /**
   * The share of the head darker than the skin, and than the hair: what a copier's or a camera's
   * tone curve leaves of the two tones, since any such curve keeps the order of the greys.
   */
  skinRank: number;
  hairRank: number;
}

function medianColour(head: Head, rows: [number, number], columns: [number, number]): Rgb {
  const channels: number[][] = [[], [], []];
  const { width } = head.grey;
  for (let y = Math.max(0, rows[0]); y < Math.min(head.grey.height, rows[1]); y++)
    for (let x = Math.max(0, columns[0]); x < Math.min(width, columns[1]); x++) {
      const i = y * width + x;
      if (!head.foreground[i]) continue;
      for (let c = 0; c < 3; c++) channels[c]!.push(head.rgb[c]!.data[i]!);
    }
  return channels.map((values) => quantile(values, 0.5)) as Rgb;
}

/** The greys of the head, from the crown down to the chin, sorted. */
function headGreys(head: Head): Float32Array {
  const { width, height } = head.grey;
  const values: number[] = [];
  const c = Math.round(head.centre);
  for (let y = head.top; y < Math.min(height, head.top + HEAD_DEPTH); y++)
    for (let x = Math.max(0, c - HEAD_HALF_WIDTH); x < Math.min(width, c + HEAD_HALF_WIDTH); x++)
      if (head.foreground[y * width + x]) values.push(head.grey.data[y * width + x]!);
  return Float32Array.from(values).sort();
}

/** The share of sorted `values` below `value`. */
function rankOf(values: Float32Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return values.length === 0 ? 0 : low / values.length;
}

const luminance = ([r, g, b]: Rgb) => 0.299 * r + 0.587 * g + 0.114 * b;

/** The head's extent below the crown and to each side of its middle, working pixels. */
const HEAD_DEPTH = 100;
const HEAD_HALF_WIDTH = 55;

export function tonesOf(head: Head): Tones {
  const { top, centre } = head;
  const c = Math.round(centre);
  // Cheeks and nose bridge: below the eyes, above the mouth; the crown: its first rows.
  const skin = medianColour(head, [top + 58, top + 80], [c - 28, c + 28]);
  const hair = medianColour(head, [top + 2, top + 9], [c - 20, c + 20]);
  const greys = headGreys(head);
  return {
    skin,
    hair,
    coloured: skin[0] - skin[2] > 0.06,
    skinRank: rankOf(greys, luminance(skin)),
    hairRank: rankOf(greys, luminance(hair)),
  };
}

/** 1 where a pixel of the head is nearer the hair's tone than the skin's (by toneDistance). */
export function hairMapOf(head: Head, tones: Tones): Uint8Array {
  const map = new Uint8Array(head.foreground.length);
  const [red, green, blue] = head.rgb.map((p) => p.data) as [Float32Array, Float32Array, Float32Array];
  const rgb: Rgb = [0, 0, 0];
  for (let i = 0; i < map.length; i++) {
    if (!head.foreground[i]) continue;
    rgb[0] = red[i]!;
    rgb[1] = green[i]!;
    rgb[2] = blue[i]!;
    map[i] =
      toneDistance(rgb, tones.hair, tones.coloured) < toneDistance(rgb, tones.skin, tones.coloured) ? 1 : 0;
  }
  return map;
}

/**
 * How far apart two tones are: brightness always, and where both photos carry colour also the
 * chromaticity (each channel's share of the sum, which a lighter or darker print keeps).
 */
export function toneDistance(a: Rgb, b: Rgb, coloured: boolean): number {
  const brightness = Math.abs(luminance(a) - luminance(b));
  if (!coloured) return brightness;
  const sa = 1 / Math.max(1e-3, a[0] + a[1] + a[2]);
  const sb = 1 / Math.max(1e-3, b[0] + b[1] + b[2]);
  const chroma = Math.hypot(a[0] * sa - b[0] * sb, a[1] * sa - b[1] * sb, a[2] * sa - b[2] * sb);
  return brightness + 3 * chroma;
}
