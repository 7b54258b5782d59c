/**
 * Subjects placed in the scene: each image scaled to about a third of the frame's height and
 * set side by side across the first view, in the near layer so they move with the scene. An
 * image without transparency gets soft oval edges, so it sits in the scene rather than on it.
 */
import type { Canvas } from '../canvas.js';
import { over } from './draw.js';
import type { Layer } from './layer.js';
import { resampleScaled } from './resample.js';

const isOpaque = (image: Canvas) => {
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! < 250) return false;
  return true;
};

/** Fades an opaque picture out toward an oval inscribed in it. */
function oval(pixels: Int32Array, width: number, height: number): void {
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const nx = (2 * (x + 0.5)) / width - 1;
      const ny = (2 * (y + 0.5)) / height - 1;
      const k = Math.min(1, Math.max(0, (1 - Math.hypot(nx, ny)) / 0.25));
      if (k >= 1) continue;
      const i = y * width + x;
      const p = pixels[i]!;
      const scale = (shift: number) => Math.round(((p >>> shift) & 0xff) * k) << shift;
      pixels[i] = scale(24) | scale(16) | scale(8) | scale(0);
    }
  }
}

/** Lays each element into a density-1 near layer, for a frame of width × height. */
export function placeElements(
  layer: Layer,
  elements: readonly Canvas[],
  width: number,
  height: number,
): void {
  elements.forEach((element, k) => {
    const scale = Math.min((0.38 * height) / element.height, (0.3 * width) / element.width);
    const w = Math.max(1, Math.round(element.width * scale));
    const h = Math.max(1, Math.round(element.height * scale));
    const pixels = resampleScaled(element, w, h, scale);
    if (isOpaque(element)) oval(pixels, w, h);
    const cx = ((k + 0.5) / elements.length - 0.5) * 0.7 * width;
    const left = Math.round(layer.ox + cx - w / 2);
    const top = Math.round(layer.oy + 0.12 * height - h / 2);
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const px = left + x;
        const py = top + y;
        if (px >= 0 && py >= 0 && px < layer.width && py < layer.height)
          over(layer.data, py * layer.width + px, pixels[y * w + x]!);
      }
    }
  });
}
