/**
 * A scene from a prompt and a seed: the forms, subjects and library things the words name,
 * where each subject stands, the weather, the hour, how fast things move, its palette, and the
 * painting of its two layers. The seed varies places, palette nuance and motion, never what is
 * in the scene. `cfgScale` weighs the words against the seed in what is left to it: at 1 the pace
 * is what the words say and the palette what they name, at 0 the seed sways both.
 */
import { paletteOf, type Palette, type Rgb } from '../paint/index.js';
import { hashOf, seeded } from '../random.js';
import { leanPalette } from './colors.js';
import { mixRgb } from './draw.js';
import { paintLand } from './land.js';
import type { Layer } from './layer.js';
import { layOut, STANDING, type Placed } from './layout.js';
import { paintSky } from './sky.js';
import { stageOf, type Stage } from './stage.js';
import { BOUNDS, islet, rock, SUBJECT_PAINTERS } from './subjects.js';
import { placeThings, type PlacedThing } from './thing-layout.js';
import { spriteOf, stamp } from './thing-sprites.js';
import { readThings, SKY_ART, type NounReport } from './things.js';
import { readPrompt, type Form, type TimeOfDay, type Weather } from './words.js';

export interface ScenePlan {
  forms: Form[];
  /** Every subject's place, back to front. */
  subjects: Placed[];
  /** The library's things, back to front. */
  things: PlacedThing[];
  /** What became of each noun of the prompt. */
  nouns: NounReport;
  weather: Weather[];
  time: TimeOfDay;
  /** Multiplies every rate of motion. */
  speed: number;
  palette: Palette;
  stage: Stage;
}

export interface SceneWords {
  seed: number;
  prompt: string;
  negativePrompt?: string;
  cfgScale?: number;
}

/** Colours to lean the palette toward (light to dark), and how far. */
export interface Borrowed {
  colors: Rgb[];
  amount: number;
}

export function planScene(
  words: SceneWords,
  frame: { width: number; height: number },
  borrowed?: Borrowed,
): ScenePlan {
  const cfg = Math.min(1, Math.max(0, words.cfgScale ?? 0.5));
  const found = readThings(words.prompt, words.negativePrompt);
  const reading = readPrompt(found.reworded, words.negativePrompt, found.implied, found.weather);
  const random = seeded(hashOf('scene', words.seed));
  const speed = Math.exp(cfg * Math.log(reading.tempo) + (1 - cfg) * (random() - 0.5) * 0.6);
  const hues = reading.impliedHues ? ` ${reading.impliedHues}` : '';
  const named = paletteOf({
    prompt: words.prompt + hues,
    negativePrompt: words.negativePrompt,
    seed: words.seed,
  });
  const own = paletteOf({
    prompt: '',
    negativePrompt: words.negativePrompt,
    seed: hashOf('free', words.seed),
  });
  // Nuance: each colour moves a little toward the seed's own, more the lower cfg is.
  let palette: Palette = {
    ...named,
    colors: named.colors.map((c, i) => mixRgb(c, own.colors[i] ?? c, (1 - cfg) * 0.35 * random())),
  };
  if (borrowed) palette = leanPalette(palette, borrowed.colors, borrowed.amount);
  // The hour decides the sky; colours the prompt names (or a borrowed picture's) tint it.
  const tint = Math.max(reading.huesNamed ? 0.5 : 0.2, borrowed?.amount ?? 0);
  const snowy = reading.weather.includes('snow') || reading.forms.includes('snowfield');
  const hue = reading.huesNamed ? palette.colors[1] : undefined;
  const stage = stageOf({ palette, time: reading.time, tint, ...frame, seed: words.seed, snowy, named: hue });
  const subjects = layOut(reading.forms, reading.counts, stage, speed);
  return {
    forms: reading.forms,
    subjects,
    things: placeThings(
      found.things.filter((t) => !reading.forms.includes(SKY_ART[t.art] as Form)),
      stage,
      reading.forms,
      speed,
      subjects.length,
    ),
    nouns: found.report,
    weather: reading.weather,
    time: reading.time,
    speed,
    palette,
    stage,
  };
}

/**
 * Paints the far layer (sky, opaque) and the near layer (grounds and the subjects that stand
 * still, over transparency); moving subjects are drawn frame by frame (movers.ts).
 */
export function paintScene(plan: ScenePlan, near: Layer, far: Layer): void {
  paintSky(far, plan.stage, plan.forms);
  paintLand(near, plan.stage, plan.forms);
  for (const placed of plan.subjects) {
    if (!STANDING.includes(placed.subject)) continue;
    if (placed.onRock) islet(near, plan.stage, placed, BOUNDS[placed.subject][2] * 0.8);
    SUBJECT_PAINTERS[placed.subject](near, plan.stage, placed);
  }
  for (const placed of plan.things) {
    if (placed.thing.motion !== 'still' && placed.thing.motion !== 'blink') continue;
    const pose = {
      x: placed.x,
      foot: placed.foot,
      scale: placed.height / plan.stage.unit,
      facing: placed.facing,
      look: 0,
      phase: 0,
    };
    if (placed.onRock) rock(near, plan.stage, pose, 0.3);
    stamp(near, spriteOf(placed, plan.stage), placed.x, placed.foot);
  }
}
