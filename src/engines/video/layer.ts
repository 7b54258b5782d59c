/**
 * A layer of the scene: premultiplied RGBA pixels (one 32-bit word each, red in the low byte)
 * over a stretch of the world. World coordinates are frame pixels at zoom 1, centred on the first
 * frame's view; a layer holds `density` of its pixels per world unit, and is made just large
 * enough for every view the camera takes of it.
 */
import type { Motion } from './types.js';

export interface Layer {
  width: number;
  height: number;
  data: Int32Array;
  /** Layer pixel of the world origin; whole numbers, so an unmoved view copies pixels exactly. */
  ox: number;
  oy: number;
  density: number;
}

/** World point of frame pixel (u, v) under a motion, for a frame of width × height. */
function worldOf(m: Motion, width: number, height: number, u: number, v: number): [number, number] {
  const pu = u - width / 2;
  const pv = v - height / 2;
  const cos = Math.cos(m.roll) / m.zoom;
  const sin = Math.sin(m.roll) / m.zoom;
  return [m.x * width + cos * pu - sin * pv, m.y * height + sin * pu + cos * pv];
}

/**
 * A transparent layer covering every frame corner of every motion, plus `margin` world units on
 * each side (room for the bilinear neighbour and for forms that should not end at the frame).
 */
export function layerFor(
  motions: readonly Motion[],
  width: number,
  height: number,
  density: number,
  margin: number,
): Layer {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const m of motions) {
    for (const [u, v] of [
      [0, 0],
      [width, 0],
      [0, height],
      [width, height],
    ] as const) {
      const [x, y] = worldOf(m, width, height, u, v);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  const ox = Math.ceil((margin - minX) * density) + 2;
  const oy = Math.ceil((margin - minY) * density) + 2;
  const layerWidth = ox + Math.ceil((maxX + margin) * density) + 3;
  const layerHeight = oy + Math.ceil((maxY + margin) * density) + 3;
  return {
    width: layerWidth,
    height: layerHeight,
    data: new Int32Array(layerWidth * layerHeight),
    ox,
    oy,
    density,
  };
}

/** The world rectangle a layer covers: [left, top, right, bottom]. */
export function extentOf(layer: Layer): [number, number, number, number] {
  const d = layer.density;
  return [-layer.ox / d, -layer.oy / d, (layer.width - layer.ox) / d, (layer.height - layer.oy) / d];
}
