/**
 * What a card lies on when someone photographs it: wood, a laminate desk or cloth, drawn with
 * enough texture and uneven light that a card detector cannot rely on a plain background.
 */
import { pick, type Random } from '../../../src/engines/random.js';
import type { Surface } from './surface.js';

type Paint = (drawn: Surface, random: Random) => void;

const rgb = (r: number, g: number, b: number, a = 1) =>
  `rgba(${Math.round(r)},${Math.round(g)},${Math.round(b)},${a})`;

/** Long wavy grain lines of a wooden table top. */
const wood: Paint = ({ skia, ctx }, random) => {
  const [r, g, b] = [120 + 60 * random(), 78 + 40 * random(), 42 + 30 * random()];
  ctx.fillStyle = rgb(r, g, b);
  ctx.fillRect(0, 0, skia.width, skia.height);
  const slope = (random() - 0.5) * 0.2;
  for (let line = 0; line < 160; line++) {
    const y0 = random() * skia.height * 1.2 - skia.height * 0.1;
    const dark = random() < 0.6;
    ctx.strokeStyle = dark
      ? rgb(r * 0.6, g * 0.55, b * 0.5, 0.1 + 0.25 * random())
      : rgb(r * 1.2, g * 1.2, b * 1.2, 0.1);
    ctx.lineWidth = 0.4 + 1.6 * random() ** 2;
    const wave = 2 + 7 * random();
    const length = 60 + 150 * random();
    const phase = random() * 6;
    ctx.beginPath();
    for (let x = -10; x <= skia.width + 10; x += 10) {
      const y = y0 + slope * x + wave * Math.sin(x / length + phase);
      if (x === -10) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
};

/** A speckled laminate desk top. */
const laminate: Paint = ({ skia, ctx }, random) => {
  const base = 90 + 90 * random();
  const tint = (random() - 0.5) * 20;
  ctx.fillStyle = rgb(base + tint, base, base - tint);
  ctx.fillRect(0, 0, skia.width, skia.height);
  for (let dot = 0; dot < 2500; dot++) {
    const shade = random() < 0.5 ? 0.75 : 1.2;
    ctx.fillStyle = rgb(base * shade, base * shade, base * shade, 0.35);
    ctx.fillRect(random() * skia.width, random() * skia.height, 0.5 + random(), 0.5 + random());
  }
};

/** A woven cloth: two crossing families of fine threads. */
const cloth: Paint = ({ skia, ctx }, random) => {
  const [r, g, b] = [40 + 120 * random(), 40 + 120 * random(), 40 + 120 * random()];
  ctx.fillStyle = rgb(r, g, b);
  ctx.fillRect(0, 0, skia.width, skia.height);
  const pitch = 2 + 1.5 * random();
  ctx.lineWidth = 0.6;
  for (let x = 0; x < skia.width; x += pitch) {
    ctx.strokeStyle = rgb(r * 0.8, g * 0.8, b * 0.8, 0.5);
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x + 1.5, skia.height);
    ctx.stroke();
  }
  for (let y = 0; y < skia.height; y += pitch) {
    ctx.strokeStyle = rgb(r * 1.15, g * 1.15, b * 1.15, 0.35);
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(skia.width, y + 1.5);
    ctx.stroke();
  }
};

const SURFACES: readonly Paint[] = [wood, laminate, cloth];

export function paintTable(drawn: Surface, random: Random): void {
  pick(random, SURFACES)(drawn, random);
  // A lamp off to one side.
  const { ctx } = drawn;
  const { width, height } = drawn.skia;
  const light = ctx.createRadialGradient(
    width * random(),
    height * random(),
    25,
    width / 2,
    height / 2,
    Math.max(width, height),
  );
  light.addColorStop(0, 'rgba(255,255,240,0.18)');
  light.addColorStop(1, 'rgba(0,0,0,0.25)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, width, height);
}
