/**
 * A photo of a screen shows the screen's pixel grid: its sub-pixel columns and rows, and the
 * coloured interference bands the grid beats into against the camera's own. All of those are
 * periodic and fine: in the power spectrum they stand as sharp peaks far above what any frequency
 * of that fineness carries in a photo of a printed card (text and guilloche spread their energy;
 * a grid concentrates it). The spectra of brightness and of colour (red against blue, where the
 * bands and the sub-pixels show most) are averaged over tiles of card paper in the picture as
 * taken, where the grid is straightest, and each fine frequency is compared with the typical
 * power at its distance from the centre. The frequencies of JPEG's block grid are left out: a
 * compressed photo of a card has that grid, and it is not a screen's.
 */
import type { Canvas } from '../../canvas.js';
import { fft, hann } from '../../signal/index.js';
import { quantile } from './planes.js';

const TILE = 128;
/** Tiles at least this bright, against the brightest tenth, are card paper… */
const PAPER_SHARE = 0.85;
/** …and this many of them make a steady spectrum. */
const MAX_TILES = 8;
/**
 * Periods from TILE / MAX_RADIUS to TILE / MIN_RADIUS pixels count: the guilloche's and the
 * text's rhythm are coarser, and the finest (near two pixels) are where a camera's or a JPEG
 * decoder's colour interpolation leaves its own pattern.
 */
const MIN_RADIUS = 20;
const MAX_RADIUS = 46;
/**
 * JPEG codes in blocks of 8 pixels, colour over 16 (it is halved first): the block grids'
 * harmonics fall on multiples of TILE / 16 in both directions.
 */
const BLOCK_HARMONIC = TILE / 16;

const window = hann(TILE);

/** Each frequency's distance from the centre of the spectrum, rounded: its ring. */
const RINGS = Uint8Array.from({ length: TILE * TILE }, (_, i) => {
  const u = i % TILE;
  const v = (i - u) / TILE;
  return Math.round(Math.hypot(u > TILE / 2 ? u - TILE : u, v > TILE / 2 ? v - TILE : v));
});

/** Whether a frequency is fine enough to be a grid's and off JPEG's block grid. */
const COUNTED = Uint8Array.from(RINGS, (r, i) => {
  const u = i % TILE;
  const v = (i - u) / TILE;
  const block = u % BLOCK_HARMONIC === 0 && v % BLOCK_HARMONIC === 0;
  return r >= MIN_RADIUS && r <= MAX_RADIUS && !block ? 1 : 0;
});

export interface GridPeaks {
  brightness: number;
  colour: number;
}

/** One tile's 2-D transform (rows, then columns) in place. */
function transform(re: Float64Array, im: Float64Array): void {
  const lineRe = new Float64Array(TILE);
  const lineIm = new Float64Array(TILE);
  for (let row = 0; row < TILE; row++) {
    lineRe.set(re.subarray(row * TILE, (row + 1) * TILE));
    lineIm.set(im.subarray(row * TILE, (row + 1) * TILE));
    fft(lineRe, lineIm);
    re.set(lineRe, row * TILE);
    im.set(lineIm, row * TILE);
  }
  for (let column = 0; column < TILE; column++) {
    for (let k = 0, i = column; k < TILE; k++, i += TILE) {
      lineRe[k] = re[i]!;
      lineIm[k] = im[i]!;
    }
    fft(lineRe, lineIm);
    for (let k = 0, i = column; k < TILE; k++, i += TILE) {
      re[i] = lineRe[k]!;
      im[i] = lineIm[k]!;
    }
  }
}

/**
 * Adds the power spectra of one tile's brightness and colour (each mean-removed and
 * Hann-windowed) to `brightness` and `colour`. Both are real, so one complex transform carries
 * them: brightness as the real part, colour as the imaginary, separated by symmetry afterwards.
 */
function addTilePower(
  image: Canvas,
  x0: number,
  y0: number,
  brightness: Float64Array,
  colour: Float64Array,
): void {
  const re = new Float64Array(TILE * TILE);
  const im = new Float64Array(TILE * TILE);
  const { data, width } = image;
  let meanRe = 0;
  let meanIm = 0;
  for (let y = 0; y < TILE; y++)
    for (let x = 0; x < TILE; x++) {
      const o = ((y0 + y) * width + x0 + x) * 4;
      const i = y * TILE + x;
      re[i] = 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
      im[i] = data[o]! - data[o + 2]!;
      meanRe += re[i]!;
      meanIm += im[i]!;
    }
  meanRe /= TILE * TILE;
  meanIm /= TILE * TILE;
  for (let y = 0; y < TILE; y++)
    for (let x = 0; x < TILE; x++) {
      const i = y * TILE + x;
      const w = window[x]! * window[y]!;
      re[i] = (re[i]! - meanRe) * w;
      im[i] = (im[i]! - meanIm) * w;
    }
  transform(re, im);
  for (let v = 0; v < TILE; v++)
    for (let u = 0; u < TILE; u++) {
      const i = v * TILE + u;
      const j = ((TILE - v) % TILE) * TILE + ((TILE - u) % TILE);
      // A = (Z[k] + conj Z[-k]) / 2, B = (Z[k] - conj Z[-k]) / 2i.
      const aRe = (re[i]! + re[j]!) / 2;
      const aIm = (im[i]! - im[j]!) / 2;
      const bRe = (im[i]! + im[j]!) / 2;
      const bIm = (re[j]! - re[i]!) / 2;
      brightness[i] = brightness[i]! + aRe * aRe + aIm * aIm;
      colour[i] = colour[i]! + bRe * bRe + bIm * bIm;
    }
}

/** How far the strongest counted frequency of one spectrum stands above the typical power of its ring. */
function peakOf(power: Float64Array): number {
  const rings: number[][] = Array.from({ length: MAX_RADIUS + 1 }, () => []);
  for (let i = 0; i < power.length; i++) if (COUNTED[i]) rings[RINGS[i]!]!.push(power[i]!);
  const typical = rings.map((ring) => (ring.length > 0 ? quantile(ring, 0.5) : 0));
  let peak = 0;
  for (let i = 0; i < power.length; i++)
    if (COUNTED[i]) peak = Math.max(peak, power[i]! / Math.max(typical[RINGS[i]!]!, 1e-9));
  return peak;
}

/** Median luminance of a tile, from a sparse sample of its pixels. */
function tileLevel(image: Canvas, x0: number, y0: number): number {
  const values: number[] = [];
  for (let y = y0; y < y0 + TILE; y += 8)
    for (let x = x0; x < x0 + TILE; x += 8) {
      const o = (y * image.width + x) * 4;
      values.push(0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!);
    }
  return quantile(values, 0.5);
}

/**
 * How far the strongest fine frequency of the card's part of `image` stands above the typical
 * power at its radius, in brightness and in colour: ratios that stay within about a thousand for
 * a printed card and reach far beyond for a screen's grid. Only tiles of card paper count (paper
 * is brighter than what a card lies on): a woven cloth beside the card is a grid too.
 */
export function gridPeaks(image: Canvas): GridPeaks {
  const across = Math.floor(image.width / TILE);
  const down = Math.floor(image.height / TILE);
  const tiles: [number, number][] = [];
  for (let j = 0; j < down; j++)
    for (let i = 0; i < across; i++)
      tiles.push([
        Math.round((image.width - across * TILE) / 2 + i * TILE),
        Math.round((image.height - down * TILE) / 2 + j * TILE),
      ]);
  if (tiles.length === 0) return { brightness: 0, colour: 0 };
  const levels = tiles.map(([x, y]) => tileLevel(image, x, y));
  const paper = quantile(levels, 0.9);
  // Paper tiles nearest the middle first: the card always covers the picture's middle.
  const middle = (k: number) =>
    Math.hypot(tiles[k]![0] + TILE / 2 - image.width / 2, tiles[k]![1] + TILE / 2 - image.height / 2);
  const chosen = tiles
    .map((_, k) => k)
    .filter((k) => levels[k]! >= PAPER_SHARE * paper)
    .sort((a, b) => middle(a) - middle(b))
    .slice(0, MAX_TILES);
  const brightness = new Float64Array(TILE * TILE);
  const colour = new Float64Array(TILE * TILE);
  for (const k of chosen) addTilePower(image, tiles[k]![0], tiles[k]![1], brightness, colour);
  return { brightness: peakOf(brightness), colour: peakOf(colour) };
}
