/**
 * The projective map taking four points to four others (a card's corners to where a camera
 * sees them), solved as the usual 8×8 linear system.
 */
export type Point = [number, number];
/** The eight coefficients a…h of (x, y) ↦ ((ax + by + c) / w, (dx + ey + f) / w), w = gx + hy + 1. */
export type Homography = readonly number[];

export function homography(from: readonly Point[], to: readonly Point[]): Homography {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i += 1) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gauss-Jordan elimination with partial pivoting.
  for (let c = 0; c < 8; c += 1) {
    let best = c;
    for (let r = c + 1; r < 8; r += 1) if (Math.abs(rows[r]![c]!) > Math.abs(rows[best]![c]!)) best = r;
    [rows[c], rows[best]] = [rows[best]!, rows[c]!];
    const pivot = rows[c]![c]!;
    for (let k = c; k < 9; k += 1) rows[c]![k]! /= pivot;
    for (let r = 0; r < 8; r += 1) {
      if (r === c) continue;
      const f = rows[r]![c]!;
      for (let k = c; k < 9; k += 1) rows[r]![k]! -= f * rows[c]![k]!;
    }
  }
  return rows.map((r) => r[8]!);
}
