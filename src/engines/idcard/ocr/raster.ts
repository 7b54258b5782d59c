/**
 * Grey views of regions of the rectified card, as Tesseract is given them. Values are printed in
 * black and labels in a lighter blue, on a tinted pattern: taking each pixel's brightest channel
 * fades everything coloured and keeps the black print, so a value crop carries no label ink.
 */
import type { Canvas } from '../../canvas.js';
import type { Box } from '../layout.js';
import type { GreyRaster } from './tesseract.js';

export type Ink = 'black' | 'any';

/** Pixel brightness as this ink sees it: the brightest channel for black print, luminance for any print. */
function brightness(data: Uint8Array, o: number, ink: Ink): number {
  const r = data[o]!;
  const g = data[o + 1]!;
  const b = data[o + 2]!;
  if (ink === 'black') return Math.max(r, g, b);
  return Math.round(0.299 * r + 0.587 * g + 0.114 * b);
}

/** The box (clipped to the card) as grey; pixels outside the card are white. */
export function regionOf(card: Canvas, box: Box, ink: Ink): GreyRaster {
  const width = Math.max(1, Math.round(box.width));
  const height = Math.max(1, Math.round(box.height));
  const x0 = Math.round(box.x);
  const y0 = Math.round(box.y);
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    const cy = y0 + y;
    if (cy < 0 || cy >= card.height) continue;
    for (let x = 0; x < width; x++) {
      const cx = x0 + x;
      if (cx < 0 || cx >= card.width) continue;
      data[y * width + x] = brightness(card.data, (cy * card.width + cx) * 4, ink);
    }
  }
  return { width, height, data };
}

/** The value of the given fraction (0–1) of the raster's pixels, ranked from dark to light. */
function percentile(raster: GreyRaster, fraction: number): number {
  const histogram = new Uint32Array(256);
  for (const v of raster.data) histogram[v]!++;
  const target = fraction * raster.data.length;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= target) return v;
  }
  return 255;
}

/** Tonal range of a raster: its paper and its ink levels. */
export interface Tones {
  paper: number;
  ink: number;
}

/** A value has little ink in its region (two characters in a wide box): its darkest few pixels are its ink. */
export function tonesOf(raster: GreyRaster): Tones {
  return { paper: percentile(raster, 0.85), ink: percentile(raster, 0.004) };
}

/** A part of a raster. */
export function cropOf(raster: GreyRaster, box: Box): GreyRaster {
  const width = Math.max(1, Math.round(box.width));
  const height = Math.max(1, Math.round(box.height));
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    const sy = Math.round(box.y) + y;
    if (sy < 0 || sy >= raster.height) continue;
    for (let x = 0; x < width; x++) {
      const sx = Math.round(box.x) + x;
      if (sx >= 0 && sx < raster.width) data[y * width + x] = raster.data[sy * raster.width + sx]!;
    }
  }
  return { width, height, data };
}
