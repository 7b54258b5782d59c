/**
 * The pre-printed card stock: a pale tint that runs from cool on the left to warm on the right,
 * fine guilloche waves in two colours and a rosette behind the fields. It is faint on purpose,
 * as on a real card: it must not compete with the printed text.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';
import { CARD_HEIGHT, CARD_WIDTH } from '../../../src/engines/idcard/layout.js';

function tint(ctx: SKRSContext2D, temporary: boolean): void {
  const across = ctx.createLinearGradient(0, 0, CARD_WIDTH, CARD_HEIGHT);
  across.addColorStop(0, temporary ? 'rgb(246,244,226)' : 'rgb(233,241,246)');
  across.addColorStop(0.55, 'rgb(242,244,242)');
  across.addColorStop(1, temporary ? 'rgb(248,236,222)' : 'rgb(247,238,234)');
  ctx.fillStyle = across;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
  const glow = ctx.createRadialGradient(780, 560, 20, 780, 560, 420);
  glow.addColorStop(0, 'rgba(240,200,190,0.35)');
  glow.addColorStop(1, 'rgba(240,200,190,0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
}

/** Rows of interfering sine waves, one family rising and one falling. */
function waves(ctx: SKRSContext2D, random: Random): void {
  const families = [
    { colour: 'rgba(80,140,195,0.22)', direction: 1 },
    { colour: 'rgba(205,120,150,0.16)', direction: -1 },
  ];
  ctx.lineWidth = 0.9;
  for (const { colour, direction } of families) {
    const phase = random() * 2 * Math.PI;
    const wavelength = 52 + random() * 20;
    ctx.strokeStyle = colour;
    for (let row = -2; row < CARD_HEIGHT / 14 + 2; row++) {
      ctx.beginPath();
      for (let x = 0; x <= CARD_WIDTH; x += 6) {
        const y =
          row * 14 +
          11 * Math.sin((direction * x) / wavelength + row * 0.35 + phase) +
          5 * Math.sin(x / 23 + row * 0.9);
        if (x === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  }
}

/** An epitrochoid rosette, the classic banknote ornament. */
function rosette(ctx: SKRSContext2D, random: Random): void {
  const cx = 420 + random() * 60;
  const cy = 300 + random() * 40;
  const [big, small, pen] = [150, 150 / (7 + Math.floor(random() * 4)), 60 + random() * 30];
  ctx.strokeStyle = 'rgba(90,150,190,0.16)';
  ctx.lineWidth = 0.8;
  ctx.beginPath();
  for (let step = 0; step <= 2400; step++) {
    const t = (step / 2400) * 2 * Math.PI * 3;
    const k = (big + small) / small;
    const x = cx + (big + small) * Math.cos(t) - pen * Math.cos(k * t);
    const y = cy + (big + small) * Math.sin(t) - pen * Math.sin(k * t);
    if (step === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.stroke();
}

export function paintCardStock(ctx: SKRSContext2D, random: Random, temporary: boolean): void {
  tint(ctx, temporary);
  waves(ctx, random);
  rosette(ctx, random);
}
