/**
 * Candidate card edges: a Hough transform over the edge map, restricted to lines within 30° of
 * horizontal or vertical (a card laid on a table and photographed lies turned up to about 25°,
 * plus camera tilt), one accumulator per way the edge faces.
 */
import { BRIGHTER_ABOVE, BRIGHTER_BELOW, BRIGHTER_LEFT, BRIGHTER_RIGHT, type EdgeMap } from './edges.js';
import type { Line } from './lines.js';

export interface EdgeLine extends Line {
  /** +1 when the image is brighter on the side the normal points to, -1 when darker. */
  polarity: 1 | -1;
  votes: number;
  /** The picture's own frame standing in for an edge the card runs up to (a close-cut scan). */
  frame?: true;
}

const MAX_ANGLE = (30 * Math.PI) / 180;
const ANGLE_STEP = (0.5 * Math.PI) / 180;
const ANGLES = Math.round((2 * MAX_ANGLE) / ANGLE_STEP) + 1;
const PER_POLARITY = 8;

/**
 * The strongest near-horizontal (or, `vertical`, near-vertical) lines of each polarity. Vertical
 * lines are found as horizontal ones of the transposed image.
 */
export function edgeLines(edges: EdgeMap, vertical: boolean, minVotes: number): EdgeLine[] {
  const { width, height, gx, gy, classes } = edges;
  // In the transposed frame u runs along the line and v across it.
  const uSize = vertical ? height : width;
  const vSize = vertical ? width : height;
  const margin = Math.ceil(uSize * Math.sin(MAX_ANGLE)) + 1;
  const bins = vSize + 2 * margin;
  const sines = Float64Array.from({ length: ANGLES }, (_, a) => Math.sin(-MAX_ANGLE + a * ANGLE_STEP));
  const cosines = Float64Array.from({ length: ANGLES }, (_, a) => Math.cos(-MAX_ANGLE + a * ANGLE_STEP));
  const votes = [new Uint16Array(ANGLES * bins), new Uint16Array(ANGLES * bins)];
  const both = vertical ? BRIGHTER_LEFT | BRIGHTER_RIGHT : BRIGHTER_ABOVE | BRIGHTER_BELOW;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if ((classes[i]! & both) === 0) continue;
      const across = vertical ? gx[i]! : gy[i]!;
      const along = vertical ? gy[i]! : gx[i]!;
      // Vote only with gradients within about 37° of vertical (horizontal, for vertical lines): a
      // side turned 30° and a little noise.
      if (Math.abs(along) > 0.75 * Math.abs(across)) continue;
      const accumulator = votes[across > 0 ? 0 : 1]!;
      const u = (vertical ? y : x) + 0.5;
      const v = (vertical ? x : y) + 0.5;
      for (let a = 0; a < ANGLES; a++) {
        const d = Math.round(v * cosines[a]! - u * sines[a]!) + margin;
        accumulator[a * bins + d]!++;
      }
    }
  }
  const lines: EdgeLine[] = [];
  for (const [index, accumulator] of votes.entries()) {
    for (let n = 0; n < PER_POLARITY; n++) {
      let best = 0;
      for (let j = 1; j < accumulator.length; j++) if (accumulator[j]! > accumulator[best]!) best = j;
      const count = accumulator[best]!;
      if (count < minVotes) break;
      const a = Math.floor(best / bins);
      const d = (best % bins) - margin;
      // Normal in the (u, v) frame is (-sin, cos); back in (x, y) it is swapped for vertical lines.
      const nu = -sines[a]!;
      const nv = cosines[a]!;
      lines.push({
        nx: vertical ? nv : nu,
        ny: vertical ? nu : nv,
        d,
        polarity: index === 0 ? 1 : -1,
        votes: count,
      });
      for (let da = -6; da <= 6; da++) {
        const aa = a + da;
        if (aa < 0 || aa >= ANGLES) continue;
        for (let dd = -6; dd <= 6; dd++) {
          const j = aa * bins + d + margin + dd;
          if (j >= aa * bins && j < (aa + 1) * bins) accumulator[j] = 0;
        }
      }
    }
  }
  return lines;
}
