/**
 * The visible mark for generated video: a small dark badge with 'AI' in white, bottom right,
 * drawn from a 5 × 7 bitmap font defined here (no font files), scaled with the frame.
 */
const GLYPHS: Record<string, readonly string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  I: ['11111', '00100', '00100', '00100', '00100', '00100', '11111'],
};

const TEXT = 'AI';

/** The badge's rectangle in the frame: [left, top, right, bottom), pixels. */
export function badgeBox(width: number, height: number): [number, number, number, number] {
  const dot = Math.max(2, Math.round(height / 120));
  const badgeWidth = (TEXT.length * 6 + 3) * dot;
  const badgeHeight = 11 * dot;
  const margin = Math.max(4, Math.round(height * 0.03));
  const right = width - margin;
  const bottom = height - margin;
  return [right - badgeWidth, bottom - badgeHeight, right, bottom];
}

/** Draws the badge into an opaque RGBA frame of words. */
export function drawBadge(frame: Int32Array, width: number, height: number): void {
  const [left, top, right, bottom] = badgeBox(width, height);
  const dot = (bottom - top) / 11;
  for (let y = Math.max(0, top); y < Math.min(height, bottom); y += 1) {
    for (let x = Math.max(0, left); x < Math.min(width, right); x += 1) {
      const i = y * width + x;
      const p = frame[i]!;
      // Darken the background to 40%, so white letters read over any scene.
      frame[i] =
        0xff000000 |
        ((((p >>> 16) & 0xff) * 0.4) << 16) |
        ((((p >>> 8) & 0xff) * 0.4) << 8) |
        ((p & 0xff) * 0.4);
    }
  }
  [...TEXT].forEach((letter, k) => {
    const rows = GLYPHS[letter]!;
    rows.forEach((row, gy) => {
      [...row].forEach((bit, gx) => {
        if (bit !== '1') return;
        const x0 = left + (2 + k * 6 + gx) * dot;
        const y0 = top + (2 + gy) * dot;
        for (let y = y0; y < y0 + dot; y += 1) {
          for (let x = x0; x < x0 + dot; x += 1)
            if (x >= 0 && y >= 0 && x < width && y < height) frame[y * width + x] = 0xffffffff | 0;
        }
      });
    });
  });
}
