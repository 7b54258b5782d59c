/**
 * Drawings as pixels: an artwork's SVG rasterised by @napi-rs/canvas at the size a scene or a
 * code needs, kept in a small cache, since a scene asks for the same few drawings at the same
 * sizes for every frame's sprite and a QR render for the same ones across attempts.
 */
import { createCanvas, Image } from '@napi-rs/canvas';
import type { Canvas } from '../canvas.js';
import { catalogue } from './catalogue.js';

const KEPT = 256;
const cache = new Map<string, Canvas>();

/** The drawing `name` in a size × size square: RGBA, not premultiplied, transparent around it. */
export function rasterOf(name: string, size: number): Canvas {
  const side = Math.max(1, Math.round(size));
  const key = `${name}@${side}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 128 128">${catalogue().bodyOf(name)}</svg>`;
  const image = new Image();
  image.src = Buffer.from(svg);
  const canvas = createCanvas(side, side);
  canvas.getContext('2d').drawImage(image, 0, 0, side, side);
  const pixels = canvas.getContext('2d').getImageData(0, 0, side, side).data;
  const out: Canvas = {
    width: side,
    height: side,
    data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length),
  };
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}

/** The rows and columns a drawing's visible pixels span: [left, top, right, bottom), exclusive. */
export function inkBounds(art: Canvas): [number, number, number, number] {
  let [left, top, right, bottom] = [art.width, art.height, 0, 0];
  for (let y = 0; y < art.height; y += 1)
    for (let x = 0; x < art.width; x += 1)
      if (art.data[(y * art.width + x) * 4 + 3]! > 24) {
        left = Math.min(left, x);
        right = Math.max(right, x + 1);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y + 1);
      }
  return right > left ? [left, top, right, bottom] : [0, 0, art.width, art.height];
}
