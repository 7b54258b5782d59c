/**
 * A cover for each song, drawn from its style and title: the procedural art of the QR engine in
 * the song's colours (style words such as "dark", "ocean" or "red" steer them), with a record
 * on it whose grooves follow the song's length and whose label takes the ink colour.
 */
import { canvasOf } from '../../canvas.js';
import { paintBackground, paletteOf, type Rgb } from '../../paint/index.js';
import { encodePng } from '../../image-codec.js';
import { hashOf, seeded } from '../../random.js';

export const COVER_SIZE = 512;

export interface CoverInput {
  title: string;
  style: string;
  seed: number;
  /** Seconds: a longer song has more grooves. */
  duration: number;
}

function blend(data: Uint8Array, at: number, color: Rgb, alpha: number): void {
  for (let c = 0; c < 3; c += 1) data[at + c] = Math.round(data[at + c]! * (1 - alpha) + color[c]! * alpha);
}

export function drawCover(input: CoverInput): Buffer {
  const seed = hashOf(`${input.title}|${input.style}`, input.seed);
  const palette = paletteOf({ prompt: `${input.style} ${input.title}`, seed });
  const canvas = canvasOf(COVER_SIZE, COVER_SIZE);
  paintBackground(canvas, palette, seeded(seed), 4);
  const random = seeded(seed ^ 0x5bd1e995);
  const cx = COVER_SIZE * (0.35 + random() * 0.3);
  const cy = COVER_SIZE * (0.35 + random() * 0.3);
  const radius = COVER_SIZE * (0.22 + random() * 0.1);
  const grooves = Math.max(6, Math.min(40, Math.round(input.duration / 6)));
  const vinyl: Rgb = [18, 18, 22];
  for (let y = 0; y < COVER_SIZE; y += 1) {
    for (let x = 0; x < COVER_SIZE; x += 1) {
      const d = Math.hypot(x - cx, y - cy) / radius;
      if (d > 1.004) continue;
      const at = (y * COVER_SIZE + x) * 4;
      // Antialiased rim, grooves as faint rings, then the label.
      const edge = Math.min(1, (1.004 - d) * radius);
      if (d > 0.36) {
        const groove = 0.1 * Math.abs(Math.sin(d * grooves * Math.PI));
        blend(canvas.data, at, vinyl, edge * (0.92 - groove));
      } else if (d > 0.04) blend(canvas.data, at, palette.ink, 1);
      else blend(canvas.data, at, palette.paper, 1);
    }
  }
  for (let i = 3; i < canvas.data.length; i += 4) canvas.data[i] = 255;
  return encodePng(canvas);
}
