/**
 * The printed background of the card: a pale ground shading from one tint to another, a
 * guilloche rosette and fine wave lines as on security print, and the rounded corners of the
 * 85.6 × 54 mm card (ISO/IEC 7810 ID-1, corner radius 3.18 mm).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { pick, type Random } from '../../../src/engines/random.js';

const GROUNDS = [
  ['#eef3f1', '#f6efe9'],
  ['#edf2f6', '#f5f0ea'],
  ['#f1f4ee', '#f4ecee'],
  ['#f3f3ef', '#eaf0f3'],
] as const;

export function cardOutline(ctx: SKRSContext2D, width: number, height: number): void {
  const r = (width * 3.18) / 85.6;
  ctx.beginPath();
  ctx.roundRect(0, 0, width, height, r);
}

export function drawCardStock(ctx: SKRSContext2D, width: number, height: number, random: Random): void {
  const [from, to] = pick(random, GROUNDS);
  cardOutline(ctx, width, height);
  const ground = ctx.createLinearGradient(0, 0, width, height * (0.5 + random()));
  ground.addColorStop(0, from);
  ground.addColorStop(1, to);
  ctx.fillStyle = ground;
  ctx.fill();
  ctx.save();
  cardOutline(ctx, width, height);
  ctx.clip();
  // Wave lines across the whole card.
  const hue = 150 + random() * 60;
  ctx.lineWidth = width / 1400;
  const period = width / (18 + random() * 10);
  for (let k = 0; k < 70; k += 1) {
    const y0 = (k / 70) * height * 1.1;
    ctx.strokeStyle = `hsla(${hue + k},35%,60%,0.16)`;
    ctx.beginPath();
    for (let x = 0; x <= width; x += 6) {
      const y = y0 + Math.sin((x / period) * Math.PI * 2 + k * 0.35) * height * 0.012;
      if (x === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  // A guilloche rosette (an epitrochoid) off centre, behind the text.
  const cx = width * (0.3 + random() * 0.15);
  const cy = height * (0.45 + random() * 0.1);
  const big = height * (0.3 + random() * 0.08);
  const lobes = 9 + Math.floor(random() * 8);
  for (let ring = 0; ring < 6; ring += 1) {
    const rr = big * (1 - ring * 0.09);
    ctx.strokeStyle = `hsla(${hue - 120 + ring * 12},40%,62%,0.2)`;
    ctx.beginPath();
    for (let t = 0; t <= Math.PI * 2 + 0.01; t += 0.01) {
      const x = cx + rr * Math.cos(t) + rr * 0.22 * Math.cos(lobes * t + ring);
      const y = cy + rr * Math.sin(t) + rr * 0.22 * Math.sin(lobes * t + ring);
      if (t === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  ctx.restore();
}
