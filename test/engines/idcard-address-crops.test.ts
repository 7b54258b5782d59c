/**
 * The address's crops on a card whose printer sets the address column wider than the standard
 * layout (its photo stands further right): the region is widened while a line's print runs into
 * its right side, so that no character is cut off, and the corner of a photo beyond the print is
 * no line of the address.
 */
import { describe, expect, it } from 'vitest';
import { canvasOf, type Canvas } from '../../src/engines/canvas.js';
import { LAYOUT } from '../../src/engines/idcard/layout.js';
import { flushLeft, TEXT_HEIGHT, valueCrops } from '../../src/engines/idcard/ocr/value-crops.js';
import type { TextLine } from '../../src/engines/idcard/ocr/text-lines.js';

const PLACEMENT = { scale: 1, dx: 0, dy: 0 };
const PITCH = 40;

/** A white card with "characters" (ink boxes with a paper row through them) from x0, `count` on a line at y. */
function card(
  lines: { x0: number; y: number; count: number }[],
  photoCorner?: [number, number, number, number],
) {
  const out: Canvas = canvasOf(1000, 631);
  out.data.fill(255);
  const ink = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) {
        if (y === y0 + Math.floor(h / 2)) continue;
        const o = (y * out.width + x) * 4;
        out.data[o] = out.data[o + 1] = out.data[o + 2] = 20;
      }
  };
  for (const { x0, y, count } of lines)
    for (let k = 0; k < count; k++) ink(x0 + k * PITCH, y, PITCH - 6, TEXT_HEIGHT - 4);
  if (photoCorner) ink(...photoCorner);
  return out;
}

describe('address crops', () => {
  it('widen the region until the last character of a long line is inside it', () => {
    const { valueBox } = LAYOUT.address;
    // Twelve characters from the value box's left: the line ends near x = 660, past the box's
    // right side (610) and the standard photo's left (640).
    const x0 = valueBox.x;
    const drawn = card([
      { x0, y: valueBox.y + 12, count: 12 },
      { x0, y: valueBox.y + 12 + 50, count: 5 },
    ]);
    const { lines } = valueCrops(drawn, 'address', PLACEMENT);
    expect(lines).toHaveLength(2);
    const first = lines[0]!.box;
    // The crop holds the twelfth character's right side, with its margin.
    expect(first.x + first.width).toBeGreaterThanOrEqual(x0 + 11 * PITCH + PITCH - 6);
  });

  it('leave out a short band far right of where the address lines start', () => {
    const at = (x: number, y: number, width: number, mass: number): TextLine => ({
      x,
      y,
      width,
      height: TEXT_HEIGHT,
      mass,
    });
    const kept = flushLeft([at(10, 0, 400, 5000), at(12, 50, 300, 3500), at(460, 100, 30, 400)], TEXT_HEIGHT);
    expect(kept.map((l) => l.x)).toEqual([10, 12]);
  });
});
