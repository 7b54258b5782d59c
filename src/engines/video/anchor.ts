/**
 * Images the video must show exactly: a start image (or the last frame of an earlier video) as
 * the first frame, an end image as the last. The image is laid into a layer where the camera sees
 * it unmoved, and carried past its edges by mirroring it, fading into the painted scene, so the
 * camera can move off it without meeting a hard border.
 */
import { extentOf, type Layer } from './layer.js';
import type { Motion } from './types.js';

const LANES = 0x00ff00ff;

/** Mirror-repeat index: ... 2 1 0 | 0 1 2 ... n-1 | n-1 n-2 ... */
function mirror(i: number, n: number): number {
  const period = 2 * n;
  const m = ((i % period) + period) % period;
  return m < n ? m : period - 1 - m;
}

/**
 * Lays `pixels` (a width × height frame, premultiplied words) into a density-1 layer at the
 * unmoved view, and its mirror images around it, weighted down to nothing `feather` world units
 * beyond its edges (Infinity: mirrored everywhere, covering the layer).
 */
export function layAnchor(
  layer: Layer,
  pixels: Int32Array,
  width: number,
  height: number,
  feather: number,
): void {
  const [left, top] = extentOf(layer);
  for (let py = 0; py < layer.height; py += 1) {
    const y = Math.round(top + py) + height / 2;
    const outY = y < 0 ? -y : y >= height ? y - height + 1 : 0;
    const sy = mirror(y, height);
    for (let px = 0; px < layer.width; px += 1) {
      const x = Math.round(left + px) + width / 2;
      const outX = x < 0 ? -x : x >= width ? x - width + 1 : 0;
      const distance = Math.hypot(outX, outY);
      if (distance >= feather) continue;
      const k = Math.round(128 * (1 - distance / feather));
      const src = pixels[sy * width + mirror(x, width)]!;
      const i = py * layer.width + px;
      if (k === 128) {
        layer.data[i] = src;
        continue;
      }
      const d = layer.data[i]!;
      const rb = (((d & LANES) * (128 - k) + (src & LANES) * k) >>> 7) & LANES;
      const ga = ((((d >>> 8) & LANES) * (128 - k) + ((src >>> 8) & LANES) * k) >>> 7) & LANES;
      layer.data[i] = rb | (ga << 8);
    }
  }
}

/** The motions as seen from the last one: the last becomes the unmoved view. */
export function relativeTo(motions: readonly Motion[], width: number, height: number): Motion[] {
  const end = motions.at(-1)!;
  const cos = Math.cos(-end.roll) * end.zoom;
  const sin = Math.sin(-end.roll) * end.zoom;
  return motions.map((m) => {
    const dx = (m.x - end.x) * width;
    const dy = (m.y - end.y) * height;
    return {
      x: (cos * dx - sin * dy) / width,
      y: (sin * dx + cos * dy) / height,
      zoom: m.zoom / end.zoom,
      roll: m.roll - end.roll,
    };
  });
}
