/**
 * Colours taken from pictures: the dominant shades of an image or a video (to pull a scene's
 * palette toward a start frame or a reference), and recolouring by luminance through a palette
 * (a gradient map), which restyles a reference video while keeping its every shape and edge.
 */
import type { Canvas } from '../canvas.js';
import type { Palette, Rgb } from '../paint/index.js';
import { mixRgb } from './draw.js';

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * Three colours, light to dark: the mean of the lightest, middle and darkest thirds of the
 * pixels (sampled on a sparse grid across all the images).
 */
export function dominantColors(images: readonly Canvas[]): Rgb[] {
  const samples: [number, number, number, number][] = [];
  for (const image of images) {
    const step = Math.max(1, Math.floor(Math.sqrt((image.width * image.height) / 4000)));
    for (let y = 0; y < image.height; y += step) {
      for (let x = 0; x < image.width; x += step) {
        const o = (y * image.width + x) * 4;
        const [r, g, b] = [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!];
        samples.push([luma(r, g, b), r, g, b]);
      }
    }
  }
  samples.sort((a, b) => b[0] - a[0]);
  return [0, 1, 2].map((k) => {
    const part = samples.slice(
      Math.floor((k * samples.length) / 3),
      Math.floor(((k + 1) * samples.length) / 3),
    );
    const sum = part.reduce<Rgb>((acc, s) => [acc[0] + s[1], acc[1] + s[2], acc[2] + s[3]], [0, 0, 0]);
    const n = Math.max(1, part.length);
    return [sum[0] / n, sum[1] / n, sum[2] / n];
  });
}

/** The palette with its colours moved `amount` of the way toward `colors` (both light to dark). */
export function leanPalette(palette: Palette, colors: readonly Rgb[], amount: number): Palette {
  const toward = (rgb: Rgb, i: number) => mixRgb(rgb, colors[Math.min(i, colors.length - 1)]!, amount);
  return {
    ...palette,
    colors: palette.colors.map(toward),
    ink: mixRgb(palette.ink, colors.at(-1)!, amount),
    paper: mixRgb(palette.paper, colors[0]!, amount),
  };
}

/**
 * 256 packed colours from the palette's darkest (luminance 0) to its lightest (255): a
 * gradient map, with the ink below the darkest colour and the paper above the lightest.
 */
export function gradientMap(palette: Palette): Int32Array {
  const stops: Rgb[] = [palette.ink, ...[...palette.colors].reverse(), palette.paper];
  const table = new Int32Array(256);
  for (let i = 0; i < 256; i += 1) {
    const position = (i / 255) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(position));
    const [r, g, b] = mixRgb(stops[k]!, stops[k + 1]!, position - k);
    table[i] = 0xff000000 | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r);
  }
  return table;
}

/** Replaces each pixel by the map's colour for its luminance, keeping `keep` of the original. */
export function recolor(pixels: Int32Array, map: Int32Array, keep: number): void {
  const k = Math.round(keep * 128);
  for (let i = 0; i < pixels.length; i += 1) {
    const p = pixels[i]!;
    const r = p & 0xff;
    const g = (p >>> 8) & 0xff;
    const b = (p >>> 16) & 0xff;
    const m = map[(r * 77 + g * 150 + b * 29) >> 8]!;
    const mr = m & 0xff;
    const mg = (m >>> 8) & 0xff;
    const mb = (m >>> 16) & 0xff;
    pixels[i] =
      0xff000000 |
      (((mb * (128 - k) + b * k) >> 7) << 16) |
      (((mg * (128 - k) + g * k) >> 7) << 8) |
      ((mr * (128 - k) + r * k) >> 7);
  }
}
