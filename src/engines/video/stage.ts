/**
 * The shared frame of reference for everything a scene paints: its palette, the hour and the
 * light it casts, where the horizon lies, the sky's colours, the unit of size (the frame's
 * height, so a scene looks the same at every resolution), and random numbers tied to places in
 * the world rather than to draw order.
 */
import type { Palette, Rgb } from '../paint/index.js';
import { hashOf, seeded, type Random } from '../random.js';
import { mixRgb, shade } from './draw.js';
import type { TimeOfDay } from './vocabulary.js';

export interface Stage {
  palette: Palette;
  time: TimeOfDay;
  night: boolean;
  /** World y of the horizon. */
  horizon: number;
  /** Frame height in world units: sizes are fractions of it. */
  unit: number;
  /** Frame width in world units: the first view spans -width/2 to width/2. */
  width: number;
  seed: number;
  /** Winter: the ground lies under snow, whatever else stands on it. */
  snowy: boolean;
  /** The colour the prompt names, if it names one: a red car is red. */
  named?: Rgb;
  skyTop: Rgb;
  skyLow: Rgb;
  /** What the hour's light multiplies the colour of lit (not glowing) things by. */
  light: Rgb;
}

/** The sky at each hour, zenith and horizon, and its light on the land. */
const HOURS: Record<TimeOfDay, { top: Rgb; low: Rgb; light: Rgb }> = {
  day: { top: [64, 126, 204], low: [178, 210, 236], light: [1, 1, 1] },
  dawn: { top: [92, 104, 168], low: [246, 184, 150], light: [0.92, 0.82, 0.8] },
  dusk: { top: [40, 38, 92], low: [236, 122, 62], light: [0.58, 0.46, 0.5] },
  night: { top: [5, 8, 24], low: [22, 30, 64], light: [0.3, 0.34, 0.48] },
};

export interface StageInput {
  palette: Palette;
  time: TimeOfDay;
  /** How far the sky leans from the hour's own colours toward the palette's, 0..1. */
  tint: number;
  width: number;
  height: number;
  seed: number;
  snowy?: boolean;
  named?: Rgb;
}

export function stageOf({ palette, time, tint, width, height, seed, snowy, named }: StageInput): Stage {
  const random = seeded(hashOf('stage', seed));
  const night = time === 'night';
  const [light, middle, dark] = [
    palette.colors[0]!,
    palette.colors[1] ?? palette.colors[0]!,
    palette.colors.at(-1)!,
  ];
  const hour = HOURS[time];
  const ownTop = night ? shade(palette.ink, 0.55) : mixRgb(middle, palette.paper, 0.25);
  const ownLow = night ? shade(dark, 0.75) : mixRgb(light, palette.paper, 0.55);
  return {
    palette,
    time,
    night,
    horizon: (random() * 0.14 - 0.06) * height,
    unit: height,
    width,
    seed,
    snowy: snowy ?? false,
    ...(named ? { named } : {}),
    skyTop: mixRgb(hour.top, ownTop, tint),
    skyLow: mixRgb(hour.low, ownLow, tint),
    light: hour.light,
  };
}

/** A colour as the hour's light shows it. */
export function lit(stage: Stage, rgb: Rgb): Rgb {
  const l = stage.light;
  return [rgb[0] * l[0], rgb[1] * l[1], rgb[2] * l[2]];
}

/**
 * Snow as the hour shows it: it throws back more light than the land, so at night it stays a pale
 * blue-grey under the moon rather than sinking into the dark like grass or water.
 */
export function snowLit(stage: Stage, rgb: Rgb): Rgb {
  const l = stage.light;
  const k = (c: number) => 0.4 + 0.6 * c;
  return [rgb[0] * k(l[0]), rgb[1] * k(l[1]), rgb[2] * k(l[2])];
}

/** Random numbers for one cell of one form: the same wherever and whenever it is drawn. */
export function cellRandom(stage: Stage, form: string, cell: number): Random {
  return seeded(hashOf(`${form}:${cell}`, stage.seed));
}

/** Random numbers for a whole form. */
export function formRandom(stage: Stage, form: string): Random {
  return seeded(hashOf(form, stage.seed));
}
