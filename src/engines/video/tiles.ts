/**
 * What each tile of a layer holds, so that the composite can take a short way through it: a tile
 * is a run of 2^TILE_SHIFT pixels of one row plus the pixel after it (the bilinear neighbour),
 * flagged EMPTY when every pixel is clear, OPAQUE when every pixel is, UNIFORM when all are one
 * colour. A layer is read this way once it is painted: the flags are worked out on the first
 * composite and kept with the layer's pixels, so a layer must not be painted after that.
 */
import type { Layer } from './layer.js';

export const TILE_SHIFT = 5;
export const EMPTY = 1;
export const OPAQUE = 2;
export const UNIFORM = 4;

export interface Tiles {
  /** Tiles per row. */
  across: number;
  /** Row by row, tile by tile. */
  flags: Uint8Array;
}

const known = new WeakMap<Int32Array, Tiles>();

export function tilesOf(layer: Layer): Tiles {
  const cached = known.get(layer.data);
  if (cached) return cached;
  const { width, height, data } = layer;
  const across = (width >> TILE_SHIFT) + 1;
  const flags = new Uint8Array(across * height);
  const size = 1 << TILE_SHIFT;
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let t = 0; t < across; t += 1) {
      const from = t * size;
      const to = Math.min(width - 1, from + size);
      if (from >= width) {
        flags[y * across + t] = EMPTY | UNIFORM;
        continue;
      }
      const first = data[row + from]!;
      let all = first;
      let any = first;
      let same = true;
      for (let x = from + 1; x <= to; x += 1) {
        const p = data[row + x]!;
        all &= p;
        any |= p;
        if (p !== first) same = false;
      }
      flags[y * across + t] =
        (any === 0 ? EMPTY : 0) | (all >>> 24 === 255 ? OPAQUE : 0) | (same ? UNIFORM : 0);
    }
  }
  const tiles = { across, flags };
  known.set(data, tiles);
  return tiles;
}
