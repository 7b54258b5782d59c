/**
 * The shared frame of reference for everything a scene paints: its palette, where the horizon
 * lies, the sky's colours, the unit of size (the frame's height, so a scene looks the same at
 * every resolution), and random numbers tied to places in the world rather than to draw order.
 */
import type { Palette, Rgb } from '../qr/palette.js';
import { hashOf, seeded, type Random } from '../random.js';
import { mixRgb, shade } from './draw.js';

export interface Stage {
  palette: Palette;
  night: boolean;
  /** World y of the horizon. */
  horizon: number;
  /** Frame height in world units: sizes are fractions of it. */
  unit: number;
  seed: number;
  skyTop: Rgb;
  skyLow: Rgb;
}

export function stageOf(palette: Palette, night: boolean, height: number, seed: number): Stage {
  const random = seeded(hashOf('stage', seed));
  const [light, middle, dark] = [
    palette.colors[0]!,
    palette.colors[1] ?? palette.colors[0]!,
    palette.colors.at(-1)!,
  ];
  return {
    palette,
    night,
    horizon: (random() * 0.2 - 0.08) * height,
    unit: height,
    seed,
    skyTop: night ? shade(palette.ink, 0.55) : mixRgb(middle, palette.paper, 0.25),
    skyLow: night ? shade(dark, 0.75) : mixRgb(light, palette.paper, 0.55),
  };
}

/** Random numbers for one cell of one form: the same wherever and whenever it is drawn. */
export function cellRandom(stage: Stage, form: string, cell: number): Random {
  return seeded(hashOf(`${form}:${cell}`, stage.seed));
}

/** Random numbers for a whole form. */
export function formRandom(stage: Stage, form: string): Random {
  return seeded(hashOf(form, stage.seed));
}
