/**
 * Lines of print in a value's region: lines printed close enough to touch are still cut apart,
 * and what lies beyond a gap wider than a character (the edge of a photo printed beside the
 * value) is left out of the line.
 */
import { describe, expect, it } from 'vitest';
import { textLines } from '../../src/engines/idcard/ocr/text-lines.js';

const HEIGHT = 36;
const PAPER = 230;
const INK = 20;

/** A raster of paper with ink boxes ("characters") where asked. */
function page(width: number, height: number, boxes: [number, number, number, number][]) {
  const data = new Uint8Array(width * height).fill(PAPER);
  for (const [x0, y0, w, h] of boxes)
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) if ((x + y) % 3 !== 0) data[y * width + x] = INK;
  return { width, height, data };
}

/** A line of `count` characters, each HEIGHT tall with a thinner gap row through its middle. */
const line = (x: number, y: number, count: number, gap = 8) =>
  Array.from({ length: count }, (_, i): [number, number, number, number] => [
    x + i * (HEIGHT + gap),
    y,
    HEIGHT - 4,
    HEIGHT,
  ]);

describe('text lines', () => {
  it('cuts three touching lines apart', () => {
    // Each line's bottom row touches the next line's top: no blank row between them.
    const raster = page(500, 160, [
      ...line(10, 10, 8),
      ...line(10, 10 + HEIGHT, 8),
      ...line(10, 10 + 2 * HEIGHT, 4),
    ]);
    const lines = textLines(raster, { paper: PAPER, ink: INK }, HEIGHT);
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l.height).toBeLessThanOrEqual(1.6 * HEIGHT);
    expect(lines[2]!.width).toBeLessThan(lines[0]!.width);
  });

  it('ends a line at a gap wider than a character, and keeps the gaps between its words', () => {
    // "1990 年 1 月": the lighter 年 and 月 leave gaps of about a character and a half.
    const date = [...line(10, 10, 4), ...line(10 + 4 * 44 + 54, 10, 1), ...line(10 + 5 * 44 + 108, 10, 2)];
    const edge: [number, number, number, number] = [520, 0, 12, 60];
    const raster = page(560, 60, [...date, edge]);
    const [only] = textLines(raster, { paper: PAPER, ink: INK }, HEIGHT);
    expect(only!.x).toBe(10);
    // The last character's right side, not the photo's edge 100 pixels on.
    expect(only!.x + only!.width).toBeLessThan(420);
    expect(only!.x + only!.width).toBeGreaterThan(10 + 5 * 44 + 108 + 44);
  });
});
