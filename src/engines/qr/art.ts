/**
 * The prompt's things in the picture behind a code: each noun's drawing from the artwork library,
 * the first large in the middle, the next two smaller toward opposite corners, treated as the
 * material would show them (a sepia wash on paper, blocks in pixel art, light from neon tubes).
 * Nouns of the look itself ("ink", "marble") and colour words draw nothing. A noun no drawing
 * names is drawn as a more general word WordNet gives for it that one does (a heron as a bird).
 */
import { catalogue, nounsOf, rasterOf, standInOf } from '../artwork/index.js';
import type { Canvas } from '../canvas.js';
import { isHueWord } from '../paint/index.js';
import { isMaterialWord, type Look } from './materials.js';
import type { Grid } from './textures.js';

/** Words that are about the picture rather than in it. */
const ABOUT = new Set([
  'art',
  'style',
  'pattern',
  'design',
  'code',
  'qr',
  'background',
  'texture',
  'colour',
  'color',
  'drawing',
  'painting',
  'window',
  'sign',
  'board',
  'bar',
]);

export interface Things {
  /** Drawings found, in the order the prompt names them; `as`: the word drawn in the noun's place. */
  drawn: { noun: string; art: string; as?: string }[];
  /** Nouns no drawing stands for. */
  unknown: string[];
}

export function thingsOf(prompt: string | undefined): Things {
  const known = (w: string) => isMaterialWord(w) || ABOUT.has(w);
  const drawn: Things['drawn'] = [];
  const unknown: string[] = [];
  for (const noun of nounsOf(prompt ?? '', known)) {
    // "rose" is a colour, "roses" are flowers; a herd says how many, which the art does not.
    if (noun.collective || known(noun.word) || known(noun.written) || isHueWord(noun.written)) continue;
    const art = catalogue().find(noun.word);
    const standIn = art || !noun.tagged ? undefined : standInOf(noun);
    if (art) {
      if (!drawn.some((d) => d.art === art.name)) drawn.push({ noun: noun.word, art: art.name });
    } else if (standIn?.art) {
      const name = standIn.art.name;
      if (!drawn.some((d) => d.art === name)) drawn.push({ noun: noun.word, art: name, as: standIn.word });
    } else if (noun.tagged) unknown.push(noun.written);
  }
  return { drawn, unknown };
}

const RASTER = 256;

/**
 * Whether the drawing's pixel at byte offset `s` is opaque with a clear pixel within two of it: a
 * line wide enough to show around the modules' cores.
 */
function outlined(image: Canvas, s: number): boolean {
  const alpha = (o: number) => (o >= 0 && o < image.data.length ? image.data[o + 3]! : 0);
  const row = image.width * 4;
  if (alpha(s) <= 128) return false;
  for (const step of [4, 8, row, 2 * row]) if (alpha(s - step) < 128 || alpha(s + step) < 128) return true;
  return false;
}

/**
 * Where each drawing goes, as fractions of the canvas: centre x, centre y, size of the short
 * side. The smaller ones keep clear of the finder patterns, which would hide them.
 */
const SPOTS: readonly [number, number, number][] = [
  [0.5, 0.5, 0.66],
  [0.78, 0.78, 0.3],
  [0.5, 0.84, 0.24],
];

export function drawThings(canvas: Canvas, things: Things, look: Look | undefined, grid: Grid): void {
  const short = Math.min(canvas.width, canvas.height);
  things.drawn.slice(0, SPOTS.length).forEach(({ art }, k) => {
    const [fx, fy, fs] = SPOTS[k]!;
    const size = Math.round(short * fs);
    // Pixel art: the drawing at one pixel per module, each pixel a block on the module grid.
    // Otherwise at most RASTER pixels a side, enlarged: the code's halftone shows no finer.
    const block = look?.material === 'pixel' ? Math.max(1, grid.module) : size / Math.min(size, RASTER);
    const image = rasterOf(art, Math.max(8, Math.round(size / block)));
    const pixel = look?.material === 'pixel';
    const align = (at: number, origin: number) =>
      pixel ? Math.round((at - origin) / block) * block + origin : Math.round(at);
    const left = align(fx * canvas.width - size / 2, grid.x);
    const top = align(fy * canvas.height - size / 2, grid.y);
    const opacity = look?.material === 'watercolour' ? 0.8 : 0.95;
    // A wash of the ink: dark where the drawing is dark, paper where it is light.
    const wash = look?.material === 'ink' ? look : undefined;
    const data = canvas.data;
    const extent = Math.round(image.width * block);
    for (let y = 0; y < extent; y += 1) {
      const py = top + y;
      if (py < 0 || py >= canvas.height) continue;
      const row = Math.min(image.height - 1, Math.floor(y / block)) * image.width;
      for (let x = 0; x < extent; x += 1) {
        const px = left + x;
        if (px < 0 || px >= canvas.width) continue;
        const s = (row + Math.min(image.width - 1, Math.floor(x / block))) * 4;
        let a = (image.data[s + 3]! / 255) * opacity;
        if (a <= 0) continue;
        if (pixel) a = a > 0.4 ? 1 : 0;
        let r = image.data[s]!;
        let g = image.data[s + 1]!;
        let b = image.data[s + 2]!;
        if (wash) {
          // Ink at the drawing's outline, as a pen would draw it; inside, a wash over the whole
          // range of grey, so the drawing stands out from the paper.
          const lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
          const t = outlined(image, s) ? 0 : Math.min(1, Math.max(0, (lum - 0.1) / 0.8)) ** 1.4;
          r = wash.ink[0] + (wash.paper[0] - wash.ink[0]) * t;
          g = wash.ink[1] + (wash.paper[1] - wash.ink[1]) * t;
          b = wash.ink[2] + (wash.paper[2] - wash.ink[2]) * t;
        }
        const o = (py * canvas.width + px) * 4;
        data[o] = data[o]! * (1 - a) + r * a;
        data[o + 1] = data[o + 1]! * (1 - a) + g * a;
        data[o + 2] = data[o + 2]! * (1 - a) + b * a;
      }
    }
  });
}
