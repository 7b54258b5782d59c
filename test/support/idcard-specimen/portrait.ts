/**
 * The holder's photograph as printed on the card: a drawn head and shoulders on a plain light
 * background, 310×400 like PORTRAIT_BOX. The seed fixes who it is (identityOf), the variant how
 * this photograph of them came out (incidentalOf), so that two variants of one seed show the same
 * person and two seeds two people: what a portrait comparison has to tell apart.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Canvas } from '../../../src/engines/canvas.js';
import { PORTRAIT_BOX } from '../../../src/engines/idcard/layout.js';
import { identityOf, incidentalOf, type Identity, type Incidental, type Rgb } from './portrait-traits.js';
import { pixelsOf, surface } from './surface.js';

type Point = readonly [number, number];

const css = (rgb: Rgb, factor = 1, alpha = 1) =>
  `rgba(${rgb.map((c) => Math.max(0, Math.min(255, Math.round(c * factor)))).join(',')},${alpha})`;

/** A closed curve through the points (Catmull-Rom turned into cubic Béziers). */
function smoothClosed(ctx: SKRSContext2D, points: readonly Point[]): void {
  const n = points.length;
  const at = (i: number) => points[(i + n) % n]!;
  ctx.beginPath();
  ctx.moveTo(...at(0));
  for (let i = 0; i < n; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    ctx.bezierCurveTo(
      p1[0] + (p2[0] - p0[0]) / 6,
      p1[1] + (p2[1] - p0[1]) / 6,
      p2[0] - (p3[0] - p1[0]) / 6,
      p2[1] - (p3[1] - p1[1]) / 6,
      p2[0],
      p2[1],
    );
  }
  ctx.closePath();
}

/** Right-hand points mirrored to the left, from the crown round to the chin and back. */
const mirrored = (right: readonly Point[]): Point[] => [
  ...right,
  ...right
    .slice(1, -1)
    .reverse()
    .map(([x, y]): Point => [-x, y]),
];

interface Frame {
  top: number;
  chin: number;
  eyeY: number;
  noseY: number;
  mouthY: number;
}

function frameOf(id: Identity): Frame {
  const top = -0.55 * id.faceHeight;
  const chin = 0.45 * id.faceHeight;
  const eyeY = top + id.eyeLevel * id.faceHeight;
  const noseY = eyeY + id.noseLength * id.faceHeight;
  return { top, chin, eyeY, noseY, mouthY: noseY + (chin - noseY) * 0.4 };
}

function faceOutline(id: Identity, f: Frame): Point[] {
  const w = id.faceWidth;
  const h = id.faceHeight;
  const jawWidth = w * (0.7 + 0.22 * id.jaw);
  return mirrored([
    [0, f.top],
    [w * 0.72, f.top + 0.06 * h],
    [w, f.top + 0.3 * h],
    [w * 0.98, f.eyeY + 0.12 * h],
    [jawWidth, f.chin - 0.2 * h],
    [id.chin + (jawWidth - id.chin) * 0.35, f.chin - 0.05 * h],
    [0, f.chin],
  ]);
}

function drawShoulders(ctx: SKRSContext2D, id: Identity, f: Frame): void {
  const neckWidth = id.faceWidth * 0.5;
  ctx.fillStyle = css(id.skin, 0.86);
  ctx.fillRect(-neckWidth, f.chin - 40, neckWidth * 2, 90);
  const base = f.chin + 42;
  ctx.fillStyle = css(id.shirt);
  ctx.beginPath();
  ctx.moveTo(-neckWidth - 6, base - 12);
  ctx.lineTo(0, base + 40);
  ctx.lineTo(neckWidth + 6, base - 12);
  ctx.lineTo(neckWidth + 20, base + 80);
  ctx.lineTo(-neckWidth - 20, base + 80);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = css(id.clothes);
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.moveTo(side * (neckWidth + 2), base - 14);
    ctx.bezierCurveTo(side * 120, base - 8, side * 165, base + 20, side * 175, base + 200);
    ctx.lineTo(side * 8, base + 200);
    ctx.lineTo(side * 8, base + 70);
    ctx.closePath();
    ctx.fill();
  }
}

/** Hair behind the head: the mass a long or bob cut shows beside the face and the cap's back. */
function drawHairBehind(ctx: SKRSContext2D, id: Identity, f: Frame): void {
  if (id.hairStyle === 'receding') return;
  const w = id.faceWidth;
  const drop = id.hairStyle === 'long' ? f.chin + 55 : id.hairStyle === 'bob' ? f.chin - 20 : f.eyeY - 10;
  ctx.fillStyle = css(id.hair);
  smoothClosed(ctx, [
    [0, f.top - 14],
    [w * 0.7, f.top - 6],
    [w * 1.06, f.top + 0.16 * id.faceHeight],
    [w * 1.18, f.eyeY - 20],
    [w * 1.14, drop],
    [0, drop - 10],
    [-w * 1.14, drop],
    [-w * 1.18, f.eyeY - 20],
    [-w * 1.06, f.top + 0.16 * id.faceHeight],
    [-w * 0.7, f.top - 6],
  ]);
  ctx.fill();
}

/** Hair over the forehead, down to the hairline the style gives. */
function drawHairFront(ctx: SKRSContext2D, id: Identity, f: Frame): void {
  const w = id.faceWidth;
  const h = id.faceHeight;
  const line = f.top + id.hairline * h;
  ctx.fillStyle = css(id.hair);
  const temple = f.top + 0.34 * h;
  const cap: Point[] = [
    [-w * 1.04, temple],
    [-w * 0.96, f.top + 0.1 * h],
    [-w * 0.62, f.top - 8],
    [0, f.top - 16],
    [w * 0.62, f.top - 8],
    [w * 0.96, f.top + 0.1 * h],
    [w * 1.04, temple],
  ];
  let hairline: Point[];
  switch (id.hairStyle) {
    case 'fringe':
      hairline = [
        [w * 0.9, line + 18],
        [w * 0.45, line + 26],
        [0, line + 22],
        [-w * 0.45, line + 26],
        [-w * 0.9, line + 18],
      ];
      break;
    case 'parted':
      hairline = [
        [w * 0.92, line + 4],
        [w * 0.4, line - 4],
        [-w * 0.25, line - 10],
        [-w * 0.45, line + 10],
        [-w * 0.92, line + 14],
      ];
      break;
    case 'receding':
      hairline = [
        [w * 0.95, line + 2],
        [w * 0.55, line - 18],
        [0, line - 12],
        [-w * 0.55, line - 18],
        [-w * 0.95, line + 2],
      ];
      break;
    default:
      hairline = [
        [w * 0.92, line + 6],
        [w * 0.4, line],
        [0, line - 2],
        [-w * 0.4, line],
        [-w * 0.92, line + 6],
      ];
  }
  smoothClosed(ctx, [...cap, ...hairline]);
  ctx.fill();
  if (id.hairStyle === 'curly') {
    for (let i = 0; i <= 12; i++) {
      const angle = Math.PI * (1 + i / 12);
      ctx.beginPath();
      ctx.arc(Math.cos(angle) * w * 1.02, f.top + 0.3 * h + Math.sin(angle) * 0.34 * h, 13, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

function drawEyes(ctx: SKRSContext2D, id: Identity, inc: Incidental, f: Frame): void {
  const half = id.eyeSize;
  const open = id.eyeOpening * inc.blink * half;
  for (const side of [-1, 1]) {
    const cx = side * id.eyeSpacing;
    const cy = f.eyeY;
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(cx - half, cy);
    ctx.quadraticCurveTo(cx, cy - open * 2, cx + half, cy);
    ctx.quadraticCurveTo(cx, cy + open * 1.5, cx - half, cy);
    ctx.closePath();
    ctx.fillStyle = 'rgb(240,236,230)';
    ctx.fill();
    ctx.clip();
    ctx.fillStyle = css(id.iris);
    ctx.beginPath();
    ctx.arc(cx, cy - open * 0.15, half * 0.46, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = 'rgb(10,8,8)';
    ctx.beginPath();
    ctx.arc(cx, cy - open * 0.15, half * 0.2, 0, 2 * Math.PI);
    ctx.fill();
    ctx.restore();
    ctx.strokeStyle = css(id.hair, 0.8);
    ctx.lineWidth = 2.2;
    ctx.beginPath();
    ctx.moveTo(cx - half - 1, cy + 1);
    ctx.quadraticCurveTo(cx, cy - open * 2, cx + half + 1, cy);
    ctx.stroke();
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.beginPath();
    ctx.arc(cx + half * 0.18, cy - open * 0.4, 1.6, 0, 2 * Math.PI);
    ctx.fill();
    // The brow above.
    const by = cy - half * 1.1 - 8;
    ctx.strokeStyle = css(id.hair, 0.9);
    ctx.lineWidth = id.browWeight;
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(side * (id.eyeSpacing - half * 0.95), by + id.browSlant);
    ctx.quadraticCurveTo(
      side * id.eyeSpacing,
      by - id.browArch,
      side * (id.eyeSpacing + half * 1.15),
      by + 3,
    );
    ctx.stroke();
  }
}

function drawNoseAndMouth(ctx: SKRSContext2D, id: Identity, inc: Incidental, f: Frame): void {
  const shade = css(id.skin, 0.68);
  ctx.strokeStyle = shade;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  const nw = id.noseWidth / 2;
  ctx.beginPath();
  ctx.moveTo(-nw, f.noseY - 6);
  ctx.quadraticCurveTo(-nw - 3, f.noseY + 2, -nw * 0.4, f.noseY + 2);
  ctx.quadraticCurveTo(0, f.noseY + 6, nw * 0.4, f.noseY + 2);
  ctx.quadraticCurveTo(nw + 3, f.noseY + 2, nw, f.noseY - 6);
  ctx.stroke();
  ctx.fillStyle = css(id.skin, 0.45);
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.ellipse(side * nw * 0.5, f.noseY + 1, 3, 1.8, 0, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.strokeStyle = css(id.skin, 0.82);
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(inc.light * -4, f.eyeY + 6);
  ctx.lineTo(inc.light * -6, f.noseY - 10);
  ctx.stroke();

  const mw = id.mouthWidth;
  const my = f.mouthY;
  const lip = id.lipHeight;
  ctx.fillStyle = css(id.lips);
  ctx.beginPath();
  ctx.moveTo(-mw, my - inc.smile);
  ctx.quadraticCurveTo(-mw * 0.45, my - lip - 1, 0, my - lip * 0.55);
  ctx.quadraticCurveTo(mw * 0.45, my - lip - 1, mw, my - inc.smile);
  ctx.quadraticCurveTo(0, my + lip * 1.5 + inc.smile * 0.5, -mw, my - inc.smile);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = css(id.lips, 0.55);
  ctx.lineWidth = 1.6;
  ctx.beginPath();
  ctx.moveTo(-mw, my - inc.smile);
  ctx.quadraticCurveTo(0, my + inc.smile * 0.8, mw, my - inc.smile);
  ctx.stroke();
}

function drawGlasses(ctx: SKRSContext2D, id: Identity, f: Frame): void {
  if (id.glasses === null) return;
  const r = id.eyeSize * 1.55;
  ctx.strokeStyle = css(id.glasses.frame);
  ctx.lineWidth = id.glasses.weight;
  for (const side of [-1, 1]) {
    const cx = side * id.eyeSpacing;
    ctx.beginPath();
    if (id.glasses.round) ctx.ellipse(cx, f.eyeY + 2, r, r * 0.82, 0, 0, 2 * Math.PI);
    else ctx.roundRect(cx - r, f.eyeY - r * 0.7, 2 * r, r * 1.45, 5);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(side * (id.eyeSpacing + r), f.eyeY - 2);
    ctx.lineTo(side * id.faceWidth * 1.02, f.eyeY - 6);
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.moveTo(-id.eyeSpacing + r, f.eyeY - 2);
  ctx.quadraticCurveTo(0, f.eyeY - 8, id.eyeSpacing - r, f.eyeY - 2);
  ctx.stroke();
}

/** A head-and-shoulders portrait of person `seed`, photograph `variant`. */
export function drawPortrait(seed: number, variant = 0): Canvas {
  const { width, height } = PORTRAIT_BOX;
  const id = identityOf(seed);
  const inc = incidentalOf(seed, variant, id.backdrop);
  const f = frameOf(id);
  const drawn = surface(width, height);
  const { ctx } = drawn;

  const backdrop = ctx.createLinearGradient(0, 0, 0, height);
  backdrop.addColorStop(0, css(inc.background, 1.0));
  backdrop.addColorStop(1, css(inc.background, 0.96));
  ctx.fillStyle = backdrop;
  ctx.fillRect(0, 0, width, height);

  ctx.save();
  ctx.translate(width / 2 + inc.dx, 190 + inc.dy);
  ctx.rotate(inc.tilt);
  ctx.scale(inc.scale, inc.scale);

  drawHairBehind(ctx, id, f);
  drawShoulders(ctx, id, f);
  ctx.fillStyle = css(id.skin, 0.9);
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.ellipse(side * id.faceWidth * 0.97, f.eyeY + 14, 10 * id.earSize, 21 * id.earSize, 0, 0, 2 * Math.PI);
    ctx.fill();
  }
  const shading = ctx.createRadialGradient(
    inc.light * id.faceWidth * 0.45,
    f.eyeY,
    10,
    0,
    f.eyeY,
    id.faceHeight * 0.62,
  );
  shading.addColorStop(0, css(id.skin, 1.04));
  shading.addColorStop(1, css(id.skin, 0.8));
  ctx.fillStyle = shading;
  smoothClosed(ctx, faceOutline(id, f));
  ctx.fill();

  drawHairFront(ctx, id, f);
  drawEyes(ctx, id, inc, f);
  drawNoseAndMouth(ctx, id, inc, f);
  drawGlasses(ctx, id, f);
  ctx.restore();

  // Exposure of this photograph.
  ctx.fillStyle =
    inc.exposure > 1 ? `rgba(255,255,255,${inc.exposure - 1})` : `rgba(0,0,0,${1 - inc.exposure})`;
  ctx.fillRect(0, 0, width, height);
  return pixelsOf(drawn);
}
