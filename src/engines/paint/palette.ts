/**
 * Colours from words: a preset names a look (hues, saturation, lightness, background pattern);
 * colour words in the prompt pull hues toward them; colour words in the negative prompt push
 * hues away; the seed varies the rest. Everything is computed, nothing is looked up online.
 */
import { hashOf, pick, seeded, type Random } from '../random.js';

export type Rgb = [number, number, number];
export type Pattern = 'gradient' | 'noise' | 'stripes' | 'rings' | 'cells' | 'waves' | 'plain';
export const PATTERNS: readonly Pattern[] = [
  'gradient',
  'noise',
  'stripes',
  'rings',
  'cells',
  'waves',
  'plain',
];

interface Look {
  hues: readonly number[];
  saturation: number;
  lightness: number;
  pattern: Pattern;
}

/** The presets, by name: each a starting point that prompt, pattern and seed then vary. */
export const PRESETS: Readonly<Record<string, Look>> = {
  ink: { hues: [220, 230], saturation: 0.15, lightness: 0.85, pattern: 'noise' },
  watercolor: { hues: [200, 330, 45], saturation: 0.45, lightness: 0.8, pattern: 'noise' },
  neon: { hues: [300, 180, 60], saturation: 0.95, lightness: 0.55, pattern: 'waves' },
  sunset: { hues: [20, 340, 45], saturation: 0.8, lightness: 0.65, pattern: 'gradient' },
  ocean: { hues: [200, 185, 220], saturation: 0.65, lightness: 0.6, pattern: 'waves' },
  forest: { hues: [120, 95, 150], saturation: 0.5, lightness: 0.55, pattern: 'cells' },
  desert: { hues: [35, 25, 45], saturation: 0.5, lightness: 0.75, pattern: 'stripes' },
  aurora: { hues: [150, 190, 280], saturation: 0.7, lightness: 0.55, pattern: 'waves' },
  candy: { hues: [330, 190, 55], saturation: 0.7, lightness: 0.82, pattern: 'stripes' },
  mono: { hues: [0], saturation: 0, lightness: 0.8, pattern: 'gradient' },
  sepia: { hues: [30, 35], saturation: 0.35, lightness: 0.72, pattern: 'noise' },
  pastel: { hues: [200, 320, 140, 50], saturation: 0.4, lightness: 0.86, pattern: 'cells' },
  cyberpunk: { hues: [290, 190, 330], saturation: 0.9, lightness: 0.45, pattern: 'stripes' },
  autumn: { hues: [25, 10, 45], saturation: 0.7, lightness: 0.6, pattern: 'cells' },
  winter: { hues: [200, 210, 190], saturation: 0.25, lightness: 0.88, pattern: 'noise' },
  spring: { hues: [100, 330, 55], saturation: 0.55, lightness: 0.78, pattern: 'cells' },
  lava: { hues: [10, 30, 0], saturation: 0.9, lightness: 0.5, pattern: 'noise' },
  galaxy: { hues: [260, 230, 300], saturation: 0.6, lightness: 0.4, pattern: 'rings' },
  marble: { hues: [40, 0], saturation: 0.08, lightness: 0.85, pattern: 'waves' },
  paper: { hues: [45], saturation: 0.2, lightness: 0.9, pattern: 'plain' },
  retro: { hues: [20, 175, 45], saturation: 0.6, lightness: 0.7, pattern: 'rings' },
  jade: { hues: [150, 160], saturation: 0.45, lightness: 0.65, pattern: 'gradient' },
  coral: { hues: [12, 350, 30], saturation: 0.65, lightness: 0.72, pattern: 'rings' },
  midnight: { hues: [235, 250], saturation: 0.5, lightness: 0.35, pattern: 'gradient' },
};

/** Words that name a hue (degrees), and words that move lightness. */
const HUE_WORDS: Readonly<Record<string, number>> = {
  red: 0,
  crimson: 350,
  orange: 30,
  amber: 40,
  gold: 45,
  golden: 45,
  yellow: 55,
  lime: 90,
  green: 120,
  emerald: 140,
  teal: 175,
  cyan: 185,
  turquoise: 175,
  blue: 220,
  navy: 230,
  indigo: 250,
  violet: 275,
  purple: 280,
  magenta: 305,
  pink: 330,
  rose: 340,
  brown: 25,
};
const DARKER = new Set(['dark', 'night', 'shadow', 'noir', 'deep', 'moody']);
const LIGHTER = new Set(['light', 'bright', 'pale', 'pastel', 'soft', 'snow', 'white', 'airy']);

export interface Palette {
  /** Background colours, two or three, from light to dark. */
  colors: Rgb[];
  pattern: Pattern;
  /** Colour the dark modules lean toward, and the light ones. */
  ink: Rgb;
  paper: Rgb;
}

export interface PaletteInput {
  prompt?: string;
  negativePrompt?: string | null;
  preset?: string;
  pattern?: string;
  seed: number;
}

const words = (text: string | null | undefined) => (text ?? '').toLowerCase().match(/\p{L}+/gu) ?? [];

/** HSL (h in degrees, s and l in 0..1) to 0..255 RGB. */
export function hsl(h: number, s: number, l: number): Rgb {
  const hue = ((h % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    hue < 60
      ? [c, x, 0]
      : hue < 120
        ? [x, c, 0]
        : hue < 180
          ? [0, c, x]
          : hue < 240
            ? [0, x, c]
            : hue < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** A hue moved out of every range (±35°) the negative prompt names. */
function avoid(hue: number, banned: readonly number[]): number {
  let h = hue;
  for (let tries = 0; tries < 12; tries += 1) {
    const near = banned.find((b) => Math.abs(((h - b + 540) % 360) - 180) < 35);
    if (near === undefined) return h;
    h += 40;
  }
  return h;
}

function lookOf(input: PaletteInput, random: Random): Look {
  const named = input.preset ? PRESETS[input.preset.toLowerCase()] : undefined;
  if (named) return named;
  // A name of our own or none: a look derived from it, the same for the same name.
  const own = seeded(hashOf(input.preset ?? input.prompt ?? '', input.seed));
  return {
    hues: [own() * 360, own() * 360],
    saturation: 0.35 + own() * 0.5,
    lightness: 0.55 + random() * 0.3,
    pattern: pick(own, PATTERNS),
  };
}

/** Whether a word names a hue (and so colours the palette rather than naming a thing). */
export const isHueWord = (word: string): boolean => word in HUE_WORDS;

export function paletteOf(input: PaletteInput): Palette {
  const random = seeded(hashOf(`${input.prompt ?? ''}|${input.preset ?? ''}`, input.seed));
  const look = lookOf(input, random);
  const prompt = words(input.prompt);
  const banned = words(input.negativePrompt).flatMap((w) => (w in HUE_WORDS ? [HUE_WORDS[w] as number] : []));
  const wanted = prompt.flatMap((w) => (w in HUE_WORDS ? [HUE_WORDS[w] as number] : []));
  let lightness = look.lightness;
  if (prompt.some((w) => DARKER.has(w))) lightness -= 0.2;
  if (prompt.some((w) => LIGHTER.has(w))) lightness += 0.12;
  if (words(input.negativePrompt).some((w) => DARKER.has(w))) lightness = Math.max(lightness, 0.7);
  lightness = Math.min(0.92, Math.max(0.25, lightness));
  const base = wanted.length > 0 ? wanted : look.hues;
  const hues = [0, 1, 2].map((i) => avoid((base[i % base.length] ?? 0) + (random() - 0.5) * 24, banned));
  const saturation = look.saturation === 0 ? 0 : Math.min(1, look.saturation * (0.85 + random() * 0.3));
  const pattern = PATTERNS.find((p) => p === input.pattern?.toLowerCase()) ?? look.pattern;
  return {
    colors: hues.map((h, i) => hsl(h, saturation, Math.min(0.95, Math.max(0.12, lightness - i * 0.12)))),
    pattern,
    ink: hsl(hues[0] ?? 0, Math.min(1, saturation + 0.2), 0.18),
    paper: hsl(hues[1] ?? 0, saturation * 0.5, 0.94),
  };
}
