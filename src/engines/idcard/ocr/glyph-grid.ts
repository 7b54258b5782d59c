/**
 * A glyph as a small grid of ink densities over its ink's bounding box, so a printed character
 * and a rendered one compare regardless of size and position: the shape is in the grid, and the
 * proportions of the box, which the grid discards, are kept beside it.
 */

/** Cells per side of a glyph's grid. */
export const GRID = 16;

export interface GlyphGrid {
  /** GRID×GRID ink densities, mean removed and scaled to unit length (ready for correlation). */
  cells: Float32Array;
  /** Width over height of the ink's bounding box. */
  aspect: number;
}

/** A character as rendered in one font: what a printed character's grid is compared with. */
export interface GlyphTemplate {
  char: string;
  grid: GlyphGrid;
}

/** An ink map: 0 paper to 1 ink, row by row. */
export interface InkMap {
  width: number;
  height: number;
  ink: Float32Array;
}

/** A part of an ink map: columns [left, right), rows [top, bottom). */
export type Extent = Record<'left' | 'top' | 'right' | 'bottom', number>;

/** The bounding box of the ink within `area` (all of the map when absent), or undefined when there is none. */
export function inkExtent(map: InkMap, area?: Extent, threshold = 0.35): Extent | undefined {
  const {
    left: from,
    right: to,
    top: first,
    bottom: last,
  } = area ?? {
    left: 0,
    right: map.width,
    top: 0,
    bottom: map.height,
  };
  let left = Infinity;
  let right = -1;
  let top = Infinity;
  let bottom = -1;
  for (let y = first; y < last; y++)
    for (let x = from; x < to; x++)
      if (map.ink[y * map.width + x]! >= threshold) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
  return right < 0 ? undefined : { left, top, right: right + 1, bottom: bottom + 1 };
}

/** The grid of the ink inside `extent`: each cell the mean of the pixels that fall in it, blurred a little so a pixel's shift costs little. */
export function gridOf(map: InkMap, extent: Extent): GlyphGrid {
  const width = extent.right - extent.left;
  const height = extent.bottom - extent.top;
  const raw = new Float32Array(GRID * GRID);
  // Sampled rather than summed: a glyph's box is often smaller than the grid on one side (一).
  const samples = 3;
  for (let gy = 0; gy < GRID; gy++)
    for (let gx = 0; gx < GRID; gx++) {
      let sum = 0;
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const x = extent.left + Math.floor(((gx + (sx + 0.5) / samples) * width) / GRID);
          const y = extent.top + Math.floor(((gy + (sy + 0.5) / samples) * height) / GRID);
          sum += map.ink[y * map.width + x]!;
        }
      raw[gy * GRID + gx] = sum / (samples * samples);
    }
  const cells = new Float32Array(GRID * GRID);
  for (let y = 0; y < GRID; y++)
    for (let x = 0; x < GRID; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = Math.min(GRID - 1, Math.max(0, y + dy));
          const xx = Math.min(GRID - 1, Math.max(0, x + dx));
          sum += raw[yy * GRID + xx]! * (dx === 0 && dy === 0 ? 4 : dx === 0 || dy === 0 ? 2 : 1);
        }
      cells[y * GRID + x] = sum / 16;
    }
  let mean = 0;
  for (const v of cells) mean += v;
  mean /= cells.length;
  let norm = 0;
  for (let i = 0; i < cells.length; i++) {
    cells[i] = cells[i]! - mean;
    norm += cells[i]! * cells[i]!;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < cells.length; i++) cells[i] = cells[i]! * scale;
  return { cells, aspect: width / height };
}

/** How alike two glyphs are: the correlation of their grids, less a penalty for different proportions. */
export function likeness(a: GlyphGrid, b: GlyphGrid): number {
  let dot = 0;
  for (let i = 0; i < a.cells.length; i++) dot += a.cells[i]! * b.cells[i]!;
  return dot - 0.5 * Math.abs(Math.log(a.aspect / b.aspect));
}
