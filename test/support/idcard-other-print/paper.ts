/**
 * Card stock as another printer's card shows it: a tinted base (ivory, grey-blue or a pink to
 * blue sweep), a fine rosette pattern of thin rings, diagonal hatching, paper fibres and grain.
 * Drawn with its own primitives, nothing shared with the specimen maker's stock.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { pick, type Random } from '../../../src/engines/random.js';

type Rgb = readonly [number, number, number];

const BASES: readonly (readonly [Rgb, Rgb])[] = [
  [
    [246, 243, 232],
    [238, 240, 236],
  ],
  [
    [236, 240, 244],
    [242, 244, 246],
  ],
  [
    [247, 236, 236],
    [230, 238, 248],
  ],
  [
    [240, 244, 236],
    [246, 242, 234],
  ],
];

const rgb = ([r, g, b]: Rgb, alpha = 1) => `rgba(${r},${g},${b},${alpha})`;

export function paintPaper(ctx: SKRSContext2D, width: number, height: number, random: Random): void {
  const [from, to] = pick(random, BASES);
  const sweep = ctx.createLinearGradient(0, 0, width, height * random());
  sweep.addColorStop(0, rgb(from));
  sweep.addColorStop(1, rgb(to));
  ctx.fillStyle = sweep;
  ctx.fillRect(0, 0, width, height);

  // A rosette: rings about a few centres, thin and pale.
  const hue: Rgb = pick(random, [
    [150, 170, 200],
    [190, 160, 170],
    [160, 190, 170],
  ] as const);
  ctx.lineWidth = 0.6 + 0.6 * random();
  ctx.strokeStyle = rgb(hue, 0.25 + 0.2 * random());
  for (let c = 0; c < 3; c++) {
    const cx = width * (0.2 + 0.6 * random());
    const cy = height * (0.2 + 0.6 * random());
    const step = 7 + 6 * random();
    for (let r = step; r < width * 0.35; r += step) {
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
  // Hatching at a slant.
  if (random() < 0.6) {
    const pitch = 9 + 8 * random();
    const slant = 0.3 + 0.8 * random();
    ctx.strokeStyle = rgb(hue, 0.12 + 0.1 * random());
    ctx.lineWidth = 0.5;
    for (let x = -height; x < width; x += pitch) {
      ctx.beginPath();
      ctx.moveTo(x, height);
      ctx.lineTo(x + height * slant, 0);
      ctx.stroke();
    }
  }
  // Fibres: short curved strokes, slightly darker or lighter than the paper.
  for (let k = 0; k < 250; k++) {
    const x = width * random();
    const y = height * random();
    const length = 4 + 14 * random();
    const angle = 2 * Math.PI * random();
    ctx.strokeStyle = random() < 0.5 ? 'rgba(120,110,100,0.10)' : 'rgba(255,255,255,0.35)';
    ctx.lineWidth = 0.5 + random();
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.quadraticCurveTo(
      x + (length / 2) * Math.cos(angle + 0.5),
      y + (length / 2) * Math.sin(angle + 0.5),
      x + length * Math.cos(angle),
      y + length * Math.sin(angle),
    );
    ctx.stroke();
  }
}

/** Grain: every pixel moved by a few levels, the same in each channel. */
export function addGrain(data: Uint8ClampedArray | Uint8Array, amount: number, random: Random): void {
  for (let i = 0; i < data.length; i += 4) {
    const n = (random() + random() + random() - 1.5) * amount;
    data[i] = Math.max(0, Math.min(255, data[i]! + n));
    data[i + 1] = Math.max(0, Math.min(255, data[i + 1]! + n));
    data[i + 2] = Math.max(0, Math.min(255, data[i + 2]! + n));
  }
}
