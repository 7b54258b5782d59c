/**
 * A head-and-shoulders photo drawn from face traits and a shot. The head is treated as a
 * vertical cylinder: a feature at a place across the face moves and narrows as the head turns,
 * the side away from the key light falls into shadow, and the features a face detector keys on
 * (eye whites and irises under a lid, brows, the shaded nose with its nostrils, lips, hairline,
 * ears, neck and shoulders) are all there, in proportions that vary from person to person.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';
import { brow, eye, marks, mouth, nose } from './face-features.js';
import { headOf, outlinePath, rgba, scaled, type Ctx, type Head } from './face-geometry.js';
import type { FaceTraits, Shot } from './face-traits.js';

function background(ctx: Ctx, shot: Shot, width: number, height: number): void {
  const gradient = ctx.createLinearGradient(0, 0, width * 0.4, height);
  gradient.addColorStop(0, rgba(shot.background));
  gradient.addColorStop(1, rgba(shot.backgroundFar));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

function shoulders(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot, height: number): void {
  const { cx, cy, fw, fh } = head;
  const neckTop = cy + fh * 0.55;
  const base = cy + fh * 1.45;
  // Neck, darker than the face and shaded under the jaw.
  const neck = ctx.createLinearGradient(0, neckTop, 0, base);
  neck.addColorStop(0, rgba(scaled(traits.skin, 0.62)));
  neck.addColorStop(0.5, rgba(scaled(traits.skin, 0.85)));
  neck.addColorStop(1, rgba(scaled(traits.skin, 0.8)));
  ctx.fillStyle = neck;
  ctx.fillRect(cx - fw * 0.5, neckTop, fw, base - neckTop + fh * 0.2);
  // Shoulders and clothes.
  ctx.beginPath();
  ctx.moveTo(cx - fw * 0.5, base - fh * 0.05);
  ctx.bezierCurveTo(cx - fw * 1.4, base, cx - fw * 2.2, base + fh * 0.15, cx - fw * 2.6, height + 5);
  ctx.lineTo(cx + fw * 2.6, height + 5);
  ctx.bezierCurveTo(cx + fw * 2.2, base + fh * 0.15, cx + fw * 1.4, base, cx + fw * 0.5, base - fh * 0.05);
  ctx.closePath();
  const cloth = ctx.createLinearGradient(cx - fw * 2.5, 0, cx + fw * 2.5, 0);
  cloth.addColorStop(0, rgba(scaled(shot.clothes, 1 - 0.25 * shot.light)));
  cloth.addColorStop(1, rgba(scaled(shot.clothes, 1 + 0.25 * shot.light)));
  ctx.fillStyle = cloth;
  ctx.fill();
  if (shot.collar === 'shirt' || shot.collar === 'jacket') {
    ctx.fillStyle = shot.collar === 'shirt' ? rgba(scaled(shot.clothes, 1.35)) : 'rgb(238,238,240)';
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.moveTo(cx + side * fw * 0.52, base - fh * 0.12);
      ctx.lineTo(cx + side * fw * 0.95, base + fh * 0.08);
      ctx.lineTo(cx + side * fw * 0.1, base + fh * 0.45);
      ctx.closePath();
      ctx.fill();
    }
  } else {
    ctx.strokeStyle = rgba(scaled(shot.clothes, 0.7));
    ctx.lineWidth = fw * 0.06;
    ctx.beginPath();
    ctx.ellipse(cx, base - fh * 0.05, fw * 0.55, fh * 0.14, 0, 0, Math.PI);
    ctx.stroke();
  }
}

function hairBehind(ctx: Ctx, head: Head, traits: FaceTraits): void {
  const { cx, cy, fw, fh } = head;
  if (traits.hairStyle === 'long' || traits.hairStyle === 'bob') {
    const down = traits.hairStyle === 'long' ? 1.45 : 0.75;
    ctx.fillStyle = rgba(scaled(traits.hair, 0.8));
    ctx.beginPath();
    ctx.moveTo(cx - fw * 1.18, cy - fh * 0.3);
    ctx.bezierCurveTo(
      cx - fw * 1.3,
      cy + fh * 0.5,
      cx - fw * 1.35,
      cy + fh * down,
      cx - fw * 1.1,
      cy + fh * down,
    );
    ctx.lineTo(cx + fw * 1.1, cy + fh * down);
    ctx.bezierCurveTo(
      cx + fw * 1.35,
      cy + fh * down,
      cx + fw * 1.3,
      cy + fh * 0.5,
      cx + fw * 1.18,
      cy - fh * 0.3,
    );
    ctx.closePath();
    ctx.fill();
  }
  if (traits.hairStyle === 'bun') {
    ctx.fillStyle = rgba(traits.hair);
    ctx.beginPath();
    ctx.ellipse(cx, cy - fh * 1.12, fw * 0.42, fh * 0.26, 0, 0, Math.PI * 2);
    ctx.fill();
  }
}

function ears(ctx: Ctx, head: Head, traits: FaceTraits): void {
  for (const side of [-1, 1]) {
    const visible = head.squeeze(side * 0.999) > 0.16 || Math.sign(head.yaw) !== side;
    if (!visible) continue;
    const x = head.cx + side * head.fw * (0.98 - 0.25 * Math.max(0, side * head.yaw));
    const y = head.y(0.02);
    ctx.fillStyle = rgba(scaled(traits.skin, 0.82));
    ctx.beginPath();
    ctx.ellipse(x, y, head.fw * 0.16, head.fh * 0.22, side * 0.15, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = rgba(scaled(traits.skin, 0.6), 0.7);
    ctx.lineWidth = head.fw * 0.025;
    ctx.beginPath();
    ctx.ellipse(x + side * head.fw * 0.02, y, head.fw * 0.08, head.fh * 0.13, side * 0.15, -1.2, 1.8);
    ctx.stroke();
  }
}

function skin(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot): void {
  const { cx, cy, fw, fh } = head;
  outlinePath(ctx, head, traits);
  ctx.save();
  ctx.clip();
  const base = ctx.createRadialGradient(
    cx + shot.light * fw * 0.35,
    cy - fh * 0.15,
    fw * 0.1,
    cx,
    cy,
    fw * 1.35,
  );
  base.addColorStop(0, rgba(scaled(traits.skin, 1.08)));
  base.addColorStop(0.6, rgba(traits.skin));
  base.addColorStop(1, rgba(scaled(traits.skin, 0.72)));
  ctx.fillStyle = base;
  ctx.fillRect(cx - fw * 1.5, cy - fh * 1.5, fw * 3, fh * 3);
  // The side away from the key light.
  const side = ctx.createLinearGradient(cx - fw, 0, cx + fw, 0);
  const shade = `rgba(40,20,10,${0.32 * shot.contrast})`;
  side.addColorStop(0, shot.light > 0 ? shade : 'rgba(40,20,10,0)');
  side.addColorStop(0.5, 'rgba(40,20,10,0)');
  side.addColorStop(1, shot.light > 0 ? 'rgba(40,20,10,0)' : shade);
  ctx.globalAlpha = Math.min(1, Math.abs(shot.light) + 0.2);
  ctx.fillStyle = side;
  ctx.fillRect(cx - fw * 1.5, cy - fh * 1.5, fw * 3, fh * 3);
  ctx.globalAlpha = 1;
  // Cheeks, and the hollows of the eyes under the brow.
  for (const s of [-1, 1]) {
    const cheek = ctx.createRadialGradient(
      head.x(s * 0.55),
      head.y(0.3),
      1,
      head.x(s * 0.55),
      head.y(0.3),
      fw * 0.35,
    );
    cheek.addColorStop(0, `rgba(210,90,80,${0.12 + 0.08 * shot.smile})`);
    cheek.addColorStop(1, 'rgba(210,90,80,0)');
    ctx.fillStyle = cheek;
    ctx.fillRect(cx - fw * 1.5, cy - fh * 1.5, fw * 3, fh * 3);
    const ex = head.x(s * traits.eyeGap);
    const ey = head.y(traits.eyeLevel);
    const socket = ctx.createRadialGradient(ex, ey - fh * 0.02, 1, ex, ey - fh * 0.02, fw * 0.36);
    socket.addColorStop(0, `rgba(70,35,25,${0.28 * shot.contrast})`);
    socket.addColorStop(1, 'rgba(70,35,25,0)');
    ctx.fillStyle = socket;
    ctx.fillRect(cx - fw * 1.5, cy - fh * 1.5, fw * 3, fh * 3);
  }
  // Under the lower lip and along the jaw.
  const under = ctx.createRadialGradient(
    cx,
    head.y(traits.mouthLevel + 0.2),
    1,
    cx,
    head.y(traits.mouthLevel + 0.2),
    fw * 0.3,
  );
  under.addColorStop(0, 'rgba(60,30,20,0.18)');
  under.addColorStop(1, 'rgba(60,30,20,0)');
  ctx.fillStyle = under;
  ctx.fillRect(cx - fw * 1.5, cy - fh * 1.5, fw * 3, fh * 3);
  ctx.restore();
}

function hairFront(ctx: Ctx, head: Head, traits: FaceTraits, random: Random): void {
  const { cx, cy, fw, fh } = head;
  const part = traits.hairStyle === 'side-part' ? 0.35 : 0;
  const line =
    traits.hairStyle === 'receding'
      ? -0.62
      : traits.hairStyle === 'buzz'
        ? -0.68
        : traits.hairStyle === 'long' || traits.hairStyle === 'bob'
          ? -0.5
          : -0.58;
  const puff = traits.hairStyle === 'buzz' || traits.hairStyle === 'receding' ? 1.03 : 1.12;
  ctx.fillStyle = rgba(traits.hair);
  ctx.beginPath();
  ctx.moveTo(cx - fw * 1.02, cy - fh * 0.05);
  ctx.bezierCurveTo(
    cx - fw * puff,
    cy - fh * 1.3 * puff,
    cx + fw * puff,
    cy - fh * 1.3 * puff,
    cx + fw * 1.02,
    cy - fh * 0.05,
  );
  ctx.lineTo(cx + fw * 0.9, cy - fh * 0.15);
  ctx.bezierCurveTo(
    cx + fw * 0.8,
    head.y(line),
    head.x(part + 0.15),
    head.y(line - 0.05),
    head.x(part),
    head.y(line - 0.1),
  );
  ctx.bezierCurveTo(
    head.x(part - 0.3),
    head.y(line + 0.02),
    cx - fw * 0.8,
    head.y(line),
    cx - fw * 0.9,
    cy - fh * 0.15,
  );
  ctx.closePath();
  ctx.fill();
  // Strands, lighter where the light falls, so the hair has texture rather than a flat cap.
  ctx.lineWidth = Math.max(0.6, fw * 0.012);
  for (let i = 0; i < 90; i += 1) {
    const from = (random() - 0.5) * 1.8;
    ctx.strokeStyle = rgba(scaled(traits.hair, 1.5 + random()), 0.35);
    ctx.beginPath();
    ctx.moveTo(head.x(part) + from * fw * 0.25, cy - fh * (1.02 + random() * 0.1));
    ctx.quadraticCurveTo(
      cx + from * fw * 0.7,
      cy - fh * 1.1,
      cx + from * fw * 0.95,
      cy - fh * (0.3 + random() * 0.4),
    );
    ctx.stroke();
  }
}

/** One photo of a person, `width`×`height` pixels. */
export function drawFace(
  traits: FaceTraits,
  shot: Shot,
  width: number,
  height: number,
  random: Random,
): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  background(ctx, shot, width, height);
  const head = headOf(traits, shot, width, height);
  ctx.save();
  ctx.translate(head.cx, head.cy + head.fh * 1.4);
  ctx.rotate(shot.roll);
  ctx.translate(-head.cx, -(head.cy + head.fh * 1.4));
  hairBehind(ctx, head, traits);
  shoulders(ctx, head, traits, shot, height);
  ears(ctx, head, traits);
  skin(ctx, head, traits, shot);
  for (const side of [-1, 1] as const) {
    eye(ctx, head, traits, shot, side, random);
    brow(ctx, head, traits, side, random);
  }
  nose(ctx, head, traits, shot);
  mouth(ctx, head, traits, shot);
  marks(ctx, head, traits);
  hairFront(ctx, head, traits, random);
  ctx.restore();
  // The light's colour over everything, as a camera without white balance records it.
  ctx.globalCompositeOperation = 'multiply';
  ctx.fillStyle = rgba(shot.tint);
  ctx.fillRect(0, 0, width, height);
  ctx.globalCompositeOperation = 'source-over';
  return canvas;
}
