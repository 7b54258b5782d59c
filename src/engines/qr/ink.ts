/**
 * Contrast: dark modules and light ones keep the colour of the art beneath them but are pushed
 * to a luminance on their side of the middle. `qrw` sets how far: 3 is near black on near white,
 * 1.5 keeps more colour while staying on the right side of every decoder's threshold.
 */
import type { Rgb } from '../paint/index.js';

export interface Inks {
  dark: number;
  light: number;
}

export function inksOf(qrw: number): Inks {
  const t = Math.min(1, Math.max(0, (qrw - 1.5) / 1.5));
  return { dark: 0.3 - 0.22 * t, light: 0.72 + 0.23 * t };
}

export function luminance(r: number, g: number, b: number): number {
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Writes into `out` at `o` the colour (r, g, b) leaned toward `lean` by `amount`, at luminance `target`. */
export function paint(
  out: Uint8Array,
  o: number,
  r: number,
  g: number,
  b: number,
  lean: Rgb,
  amount: number,
  target: number,
): void {
  const mr = r + (lean[0] - r) * amount;
  const mg = g + (lean[1] - g) * amount;
  const mb = b + (lean[2] - b) * amount;
  const y = luminance(mr, mg, mb);
  // Ink only ever moves away from the middle: a light module over brighter art stays as bright
  // as the art (a quiet zone darker than its surroundings reads as a frame of dark modules).
  target = target >= 0.5 ? Math.max(target, y) : Math.min(target, y);
  if (y > target) {
    const scale = y > 0 ? target / y : 0;
    out[o] = mr * scale;
    out[o + 1] = mg * scale;
    out[o + 2] = mb * scale;
  } else {
    const lift = y < 1 ? (target - y) / (1 - y) : 0;
    out[o] = mr + (255 - mr) * lift;
    out[o + 1] = mg + (255 - mg) * lift;
    out[o + 2] = mb + (255 - mb) * lift;
  }
}
