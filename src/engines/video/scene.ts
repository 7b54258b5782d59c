/**
 * A scene from a prompt and a seed: which forms and weather it holds, whether it is night, how
 * fast it moves, its palette, and the painting of its two layers. `cfgScale` weighs the words
 * against the seed: at 1 the scene is what the words say, at 0 the seed adds forms, weather and
 * colours of its own and sets the pace.
 */
import { paletteOf, type Palette, type Rgb } from '../qr/palette.js';
import { hashOf, pick, seeded } from '../random.js';
import { leanPalette } from './colors.js';
import { paintLand } from './land.js';
import type { Layer } from './layer.js';
import { paintSky } from './sky.js';
import { stageOf, type Stage } from './stage.js';
import { FORMS, readPrompt, WEATHERS, type Form, type Weather } from './words.js';

export interface ScenePlan {
  forms: Form[];
  weather: Weather[];
  night: boolean;
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

export function planScene(words: SceneWords, height: number, borrowed?: Borrowed): ScenePlan {
  const cfg = Math.min(1, Math.max(0, words.cfgScale ?? 0.5));
  const reading = readPrompt(words.prompt, words.negativePrompt);
  const random = seeded(hashOf('scene', words.seed));
  const forms = reading.forms.filter(() => random() < 0.5 + cfg);
  const free = FORMS.filter((f) => !reading.bannedForms.includes(f) && !forms.includes(f));
  if ((forms.length === 0 || random() > cfg + 0.2) && free.length > 0) forms.push(pick(random, free));
  const weather = [...reading.weather];
  const freeWeather = WEATHERS.filter((w) => !reading.bannedWeather.includes(w) && !weather.includes(w));
  if (random() < (1 - cfg) * 0.4 && freeWeather.length > 0) weather.push(pick(random, freeWeather));
  const night = reading.night || random() < (1 - cfg) * 0.25;
  const speed = Math.exp(cfg * Math.log(reading.tempo) + (1 - cfg) * (random() - 0.5) * 0.6);
  const hues = reading.impliedHues && random() < 0.5 + cfg ? ` ${reading.impliedHues}` : '';
  const nightWord = night && !reading.night ? ' night' : '';
  const named = paletteOf({
    prompt: words.prompt + hues + nightWord,
    negativePrompt: words.negativePrompt,
    seed: words.seed,
  });
  const own = paletteOf({
    prompt: nightWord,
    negativePrompt: words.negativePrompt,
    seed: hashOf('free', words.seed),
  });
  let palette: Palette = {
    ...named,
    colors: named.colors.map((c, i) => (random() < (1 - cfg) * 0.3 ? (own.colors[i] ?? c) : c)),
  };
  if (borrowed) palette = leanPalette(palette, borrowed.colors, borrowed.amount);
  const ordered = FORMS.filter((f) => forms.includes(f));
  return {
    forms: ordered,
    weather,
    night,
    speed,
    palette,
    stage: stageOf(palette, night, height, words.seed),
  };
}

/** Paints the far layer (sky, opaque) and the near layer (forms over transparency). */
export function paintScene(plan: ScenePlan, near: Layer, far: Layer): void {
  paintSky(far, plan.stage, plan.forms);
  paintLand(near, plan.stage, plan.forms);
}
