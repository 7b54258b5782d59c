/**
 * Measurements of rendered scenes, made on the pixels alone: where the horizon is, the colour of
 * the sky, pixels that stand out from their row (a tower against the sky), connected blobs and
 * their boxes, flower-coloured specks, and the difference between two frames. Frames come from
 * the engine's frame painter or from an MP4 decoded by ffmpeg.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Canvas } from '../../src/engines/canvas.js';

const run = promisify(execFile);

export type Rgb = [number, number, number];

export const rgbAt = (f: Canvas, x: number, y: number): Rgb => {
  const o = (y * f.width + x) * 4;
  return [f.data[o]!, f.data[o + 1]!, f.data[o + 2]!];
};

export const luma = ([r, g, b]: Rgb) => 0.299 * r + 0.587 * g + 0.114 * b;

/** Frame `index` of an MP4, decoded by ffmpeg to RGBA. */
export async function videoFrame(mp4: Buffer, index: number, width: number, height: number): Promise<Canvas> {
  const dir = mkdtempSync(join(tmpdir(), 'scene-frame-'));
  try {
    const path = join(dir, 'video.mp4');
    writeFileSync(path, mp4);
    const { stdout } = await run(
      'ffmpeg',
      [
        ...['-v', 'error', '-i', path, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
      ],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
    );
    if (stdout.length !== width * height * 4) throw new Error(`frame of ${stdout.length} bytes`);
    return { width, height, data: new Uint8Array(stdout) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean colour of each row. */
export function rowMeans(f: Canvas): Rgb[] {
  return Array.from({ length: f.height }, (_, y) => {
    const sum: Rgb = [0, 0, 0];
    for (let x = 0; x < f.width; x += 1) {
      const [r, g, b] = rgbAt(f, x, y);
      [sum[0], sum[1], sum[2]] = [sum[0] + r, sum[1] + g, sum[2] + b];
    }
    return sum.map((v) => v / f.width) as Rgb;
  });
}

/** Median colour of each row, channel by channel: what most of the row shows. */
function rowMedians(f: Canvas): Rgb[] {
  return Array.from({ length: f.height }, (_, y) => {
    const channels = [0, 1, 2].map(() => new Array<number>(f.width));
    for (let x = 0; x < f.width; x += 1) {
      const rgb = rgbAt(f, x, y);
      for (let k = 0; k < 3; k += 1) channels[k]![x] = rgb[k]!;
    }
    return channels.map((c) => c.sort((a, b) => a - b)[f.width >> 1]!) as Rgb;
  });
}

/**
 * The horizon: the first row of the ground, where the median colour of rows changes most between
 * neighbours, looked for in the middle 60% of the frame. Medians, so that a thing standing across
 * part of the width (a lighthouse's rock and its surf) is not taken for the horizon.
 */
export function horizonOf(f: Canvas): number {
  const rows = rowMedians(f);
  let best = 0;
  let at = 0;
  for (let y = Math.round(0.2 * f.height); y < Math.round(0.8 * f.height); y += 1) {
    const [a, b] = [rows[y - 1]!, rows[y]!];
    const jump = Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
    if (jump > best) [best, at] = [jump, y];
  }
  return at;
}

/** Mean colour of the rows from `top` to `bottom` (exclusive). */
export function meanColor(f: Canvas, top: number, bottom: number): Rgb {
  const means = rowMeans(f).slice(top, bottom);
  return [0, 1, 2].map((k) => means.reduce((s, m) => s + m[k]!, 0) / means.length) as Rgb;
}

export interface Mask {
  width: number;
  height: number;
  on: Uint8Array;
}

/** Pixels of rows `top`..`bottom` that differ from their row's median by more than `threshold`. */
export function standouts(f: Canvas, top: number, bottom: number, threshold: number): Mask {
  const on = new Uint8Array(f.width * f.height);
  for (let y = Math.max(0, top); y < Math.min(f.height, bottom); y += 1) {
    const row = Array.from({ length: f.width }, (_, x) => rgbAt(f, x, y));
    const median = [0, 1, 2].map((k) => row.map((c) => c[k]!).sort((a, b) => a - b)[f.width >> 1]!);
    row.forEach((c, x) => {
      const far = Math.max(...[0, 1, 2].map((k) => Math.abs(c[k]! - median[k]!)));
      if (far > threshold) on[y * f.width + x] = 1;
    });
  }
  return { width: f.width, height: f.height, on };
}

/** Pixels where two frames differ by more than `threshold` in some channel. */
export function difference(a: Canvas, b: Canvas, threshold: number): Mask {
  const on = new Uint8Array(a.width * a.height);
  for (let i = 0; i < on.length; i += 1) {
    for (let k = 0; k < 3; k += 1)
      if (Math.abs(a.data[i * 4 + k]! - b.data[i * 4 + k]!) > threshold) on[i] = 1;
  }
  return { width: a.width, height: a.height, on };
}

/** Pixels a test picks by colour. */
export function colored(f: Canvas, pick: (c: Rgb) => boolean, top = 0, bottom = f.height): Mask {
  const on = new Uint8Array(f.width * f.height);
  for (let y = top; y < bottom; y += 1)
    for (let x = 0; x < f.width; x += 1) if (pick(rgbAt(f, x, y))) on[y * f.width + x] = 1;
  return { width: f.width, height: f.height, on };
}

export interface Blob {
  area: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number[];
}

export const widthOf = (b: Blob) => b.right - b.left + 1;
export const heightOf = (b: Blob) => b.bottom - b.top + 1;

/** Connected blobs of a mask (8-neighbour), largest first. */
export function blobs(mask: Mask): Blob[] {
  const seen = new Uint8Array(mask.on.length);
  const out: Blob[] = [];
  for (let start = 0; start < mask.on.length; start += 1) {
    if (!mask.on[start] || seen[start]) continue;
    const blob: Blob = { area: 0, left: Infinity, top: Infinity, right: -1, bottom: -1, pixels: [] };
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const [x, y] = [i % mask.width, Math.floor(i / mask.width)];
      blob.area += 1;
      blob.pixels.push(i);
      blob.left = Math.min(blob.left, x);
      blob.right = Math.max(blob.right, x);
      blob.top = Math.min(blob.top, y);
      blob.bottom = Math.max(blob.bottom, y);
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= mask.width || ny >= mask.height) continue;
          const j = ny * mask.width + nx;
          if (mask.on[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    out.push(blob);
  }
  return out.sort((a, b) => b.area - a.area);
}

/** The pixels of all blobs together, as one box. */
export function boxOf(mask: Mask): Blob | undefined {
  const all = blobs(mask);
  if (all.length === 0) return undefined;
  return all.reduce((a, b) => ({
    area: a.area + b.area,
    left: Math.min(a.left, b.left),
    top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
    pixels: [...a.pixels, ...b.pixels],
  }));
}

export interface Column {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The most pixels of the mask in one of its columns. */
  rows: number;
}

/**
 * Runs of neighbouring columns with at least `least` pixels of the mask in each: an upright
 * thing against the sky, even where part of it matches the sky's colour at its height.
 */
export function columnsOf(mask: Mask, least: number): Column[] {
  const runs: Column[] = [];
  let run: Column | undefined;
  for (let x = 0; x < mask.width; x += 1) {
    let count = 0;
    let [top, bottom] = [mask.height, -1];
    for (let y = 0; y < mask.height; y += 1) {
      if (!mask.on[y * mask.width + x]) continue;
      count += 1;
      [top, bottom] = [Math.min(top, y), Math.max(bottom, y)];
    }
    if (count < least) {
      run = undefined;
      continue;
    }
    if (!run) runs.push((run = { left: x, right: x, top, bottom, rows: count }));
    run.right = x;
    run.top = Math.min(run.top, top);
    run.bottom = Math.max(run.bottom, bottom);
    run.rows = Math.max(run.rows, count);
  }
  return runs;
}

/** The row of the brightest pixel within a column run's box. */
export function brightestRow(f: Canvas, c: Column): number {
  let [best, row] = [-1, c.top];
  for (let y = c.top; y <= c.bottom; y += 1) {
    for (let x = c.left; x <= c.right; x += 1) {
      const l = luma(rgbAt(f, x, y));
      if (l > best) [best, row] = [l, y];
    }
  }
  return row;
}

/** The colours of petals: pink, and buttercup yellow. */
export const flowerColored = ([r, g, b]: Rgb) =>
  (r > 170 && b > 100 && g < b - 10 && r - g > 70) || (r > 200 && g > 170 && b < 140 && r - b > 90);

/** Small flower-coloured specks on the ground, below row `from`. */
export function flowerSpecks(f: Canvas, from: number): Blob[] {
  return blobs(colored(f, flowerColored, from)).filter((b) => b.area <= 30);
}
