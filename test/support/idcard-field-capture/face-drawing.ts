/**
 * A head-and-shoulders photo drawn from face traits and a shot. The head is treated as a
 * vertical cylinder: a feature at a place across the face moves and narrows as the head turns,
 * the side away from the key light falls into shadow, and the features a face detector keys on
 * (eye whites and irises under a lid, brows, the shaded nose with its nostrils, lips, hairline,
 * ears, neck and shoulders) are all there, in proportions that vary from person to person.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';
import type { FaceTraits, Rgb, Shot } from './face-traits.js';

type Ctx = SKRSContext2D;

const rgba = ([r, g, b]: Rgb, a = 1) => `rgba(${Math.round(r)},${Math.round(g)},${Math.round(b)},${a})`;
const scaled = ([r, g, b]: Rgb, k: number): Rgb => [
  Math.min(255, r * k),
  Math.min(255, g * k),
  Math.min(255, b * k),
];

/** Where a point across the face (-1 left edge … 1 right edge) lands, and how foreshortened it is there. */
interface Head {
  cx: number;
  cy: number;
  fw: number;
  fh: number;
  yaw: number;
  x(across: number, depth?: number): number;
  y(down: number): number;
  squeeze(across: number): number;
}

function headOf(traits: FaceTraits, shot: Shot, width: number, height: number): Head {
  const unit = (width / 300) * shot.scale;
  const fw = 70 * traits.width * unit;
  const fh = 92 * traits.length * unit;
  const cx = width / 2 + shot.shiftX * (width / 300);
  const cy = height * 0.43 + shot.shiftY * (width / 300);
  const angle = (across: number) => Math.asin(Math.max(-1, Math.min(1, across * 0.97))) + shot.yaw;
  return {
    cx,
    cy,
    fw,
    fh,
    yaw: shot.yaw,
    x: (across, depth = 0) => cx + fw * Math.sin(angle(across)) + depth * fw * Math.sin(shot.yaw),
    y: (down) => cy + fh * down + shot.pitch * fh * 0.4 * (1 - Math.abs(down)),
    squeeze: (across) => Math.max(0.15, Math.cos(angle(across))),
  };
}

function outlinePath(ctx: Ctx, head: Head, traits: FaceTraits): void {
  const { cx, cy, fw, fh } = head;
  const turn = fw * Math.sin(head.yaw) * 0.25;
  const jaw = traits.jaw * fw;
  const chin = traits.chin * fw;
  ctx.beginPath();
  ctx.moveTo(cx + turn, cy - fh);
  ctx.bezierCurveTo(cx + fw * 0.75, cy - fh, cx + fw, cy - fh * 0.55, cx + fw, cy - fh * 0.1);
  ctx.bezierCurveTo(cx + fw, cy + fh * 0.3, cx + jaw * 1.05, cy + fh * 0.5, cx + jaw, cy + fh * 0.62);
  ctx.bezierCurveTo(cx + jaw * 0.8, cy + fh * 0.85, cx + chin + turn, cy + fh, cx + turn * 2, cy + fh);
  ctx.bezierCurveTo(cx - chin + turn, cy + fh, cx - jaw * 0.8, cy + fh * 0.85, cx - jaw, cy + fh * 0.62);
  ctx.bezierCurveTo(cx - jaw * 1.05, cy + fh * 0.5, cx - fw, cy + fh * 0.3, cx - fw, cy - fh * 0.1);
  ctx.bezierCurveTo(cx - fw, cy - fh * 0.55, cx - fw * 0.75, cy - fh, cx + turn, cy - fh);
  ctx.closePath();
}

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

function eye(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot, side: -1 | 1, random: Random): void {
  const across = side * traits.eyeGap;
  const x = head.x(across);
  const y = head.y(traits.eyeLevel);
  const w = head.fw * traits.eyeWidth * head.squeeze(across);
  const h = w * traits.eyeOpen * (1 - 0.35 * shot.smile) * (1 / head.squeeze(across)) ** 0.3;
  const tilt = -side * traits.eyeTilt;
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(tilt);
  const almond = () => {
    ctx.beginPath();
    ctx.moveTo(-w, 0);
    ctx.bezierCurveTo(-w * 0.5, -h * 1.25, w * 0.45, -h * 1.3, w, -h * 0.1);
    ctx.bezierCurveTo(w * 0.5, h * 0.95, -w * 0.5, h * 0.9, -w, 0);
    ctx.closePath();
  };
  almond();
  ctx.fillStyle = 'rgb(228,222,214)';
  ctx.fill();
  ctx.save();
  almond();
  ctx.clip();
  const gaze = head.yaw * w * 0.6 + (random() - 0.5) * w * 0.1;
  const r = h * 0.95;
  const iris = ctx.createRadialGradient(gaze, -h * 0.1, r * 0.2, gaze, -h * 0.1, r);
  iris.addColorStop(0, rgba(scaled(traits.iris, 1.4)));
  iris.addColorStop(1, rgba(scaled(traits.iris, 0.6)));
  ctx.fillStyle = iris;
  ctx.beginPath();
  ctx.arc(gaze, -h * 0.1, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgb(12,8,6)';
  ctx.beginPath();
  ctx.arc(gaze, -h * 0.1, r * 0.45, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.beginPath();
  ctx.arc(gaze + r * 0.35 * (shot.light || 0.5), -h * 0.45, r * 0.18, 0, Math.PI * 2);
  ctx.fill();
  // The upper lid's shadow on the eyeball.
  const lidShadow = ctx.createLinearGradient(0, -h * 1.2, 0, 0);
  lidShadow.addColorStop(0, 'rgba(40,20,10,0.5)');
  lidShadow.addColorStop(1, 'rgba(40,20,10,0)');
  ctx.fillStyle = lidShadow;
  ctx.fillRect(-w, -h * 1.3, w * 2, h * 1.3);
  ctx.restore();
  // Lashes along the upper lid, a faint lower lid and the crease.
  ctx.strokeStyle = 'rgb(28,18,14)';
  ctx.lineWidth = Math.max(1.2, w * 0.14);
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(-w * 1.02, h * 0.05);
  ctx.bezierCurveTo(-w * 0.5, -h * 1.25, w * 0.45, -h * 1.3, w * 1.02, -h * 0.1);
  ctx.stroke();
  ctx.strokeStyle = rgba(scaled(traits.skin, 0.55), 0.7);
  ctx.lineWidth = Math.max(0.8, w * 0.06);
  ctx.beginPath();
  ctx.moveTo(-w * 0.9, h * 0.15);
  ctx.bezierCurveTo(-w * 0.5, h * 1.05, w * 0.5, h * 1.1, w * 0.95, 0);
  ctx.stroke();
  if (traits.doubleLid) {
    ctx.strokeStyle = rgba(scaled(traits.skin, 0.6), 0.8);
    ctx.beginPath();
    ctx.moveTo(-w * 0.7, -h * 1.0);
    ctx.bezierCurveTo(-w * 0.3, -h * 1.75, w * 0.4, -h * 1.8, w * 0.95, -h * 0.65);
    ctx.stroke();
  }
  if (traits.age > 0.4) {
    ctx.strokeStyle = rgba(scaled(traits.skin, 0.7), traits.age * 0.6);
    ctx.beginPath();
    ctx.moveTo(-w * 0.7, h * 1.5);
    ctx.quadraticCurveTo(0, h * 2.3, w * 0.8, h * 1.4);
    ctx.stroke();
  }
  ctx.restore();
}

function brow(ctx: Ctx, head: Head, traits: FaceTraits, side: -1 | 1, random: Random): void {
  const inner = side * (traits.eyeGap - traits.eyeWidth * 0.9);
  const outer = side * (traits.eyeGap + traits.eyeWidth * 1.15);
  const level = traits.eyeLevel - traits.browLift;
  ctx.strokeStyle = rgba(scaled(traits.hair, 1.1), 0.55);
  ctx.lineCap = 'round';
  const steps = 26;
  for (let i = 0; i <= steps; i += 1) {
    const t = i / steps;
    const across = inner + (outer - inner) * t;
    const arch = Math.sin(Math.PI * Math.min(1, t * 1.4)) * traits.browArch * 0.18;
    const thick = head.fh * traits.browThickness * (1 - 0.55 * t);
    const x = head.x(across);
    const y = head.y(level - arch + (random() - 0.5) * 0.01);
    ctx.lineWidth = Math.max(0.8, head.fw * 0.02);
    ctx.beginPath();
    ctx.moveTo(x - side * 1.5, y + thick * 0.6);
    ctx.lineTo(x + side * 2.5, y - thick * 0.5);
    ctx.stroke();
  }
}

function nose(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot): void {
  const top = traits.eyeLevel + 0.02;
  const tip = traits.eyeLevel + traits.noseLength + 0.05;
  const tipX = head.x(0, 0.35);
  const w = head.fw * traits.noseWidth;
  const away = shot.light >= 0 ? -1 : 1;
  // The shadowed side of the bridge.
  const bridge = ctx.createLinearGradient(tipX + away * w * 0.9, 0, tipX, 0);
  bridge.addColorStop(0, `rgba(90,45,30,${0.28 * shot.contrast})`);
  bridge.addColorStop(1, 'rgba(90,45,30,0)');
  ctx.fillStyle = bridge;
  ctx.beginPath();
  ctx.moveTo(head.x(away * 0.08), head.y(top));
  ctx.lineTo(tipX + away * w * 0.15, head.y(tip - 0.05));
  ctx.lineTo(tipX + away * w * 0.9, head.y(tip));
  ctx.lineTo(head.x(away * 0.2), head.y(top));
  ctx.closePath();
  ctx.fill();
  // The tip catches the light; the wings and nostrils are dark.
  const highlight = ctx.createRadialGradient(
    tipX - away * w * 0.2,
    head.y(tip - 0.04),
    0,
    tipX,
    head.y(tip - 0.04),
    w * 0.6,
  );
  highlight.addColorStop(0, 'rgba(255,240,230,0.35)');
  highlight.addColorStop(1, 'rgba(255,240,230,0)');
  ctx.fillStyle = highlight;
  ctx.fillRect(tipX - w, head.y(tip - 0.2), w * 2, head.fh * 0.3);
  const under = ctx.createRadialGradient(tipX, head.y(tip + 0.03), 0, tipX, head.y(tip + 0.03), w * 0.9);
  under.addColorStop(0, 'rgba(80,35,25,0.35)');
  under.addColorStop(1, 'rgba(80,35,25,0)');
  ctx.fillStyle = under;
  ctx.fillRect(tipX - w, head.y(tip - 0.05), w * 2, head.fh * 0.15);
  ctx.strokeStyle = rgba(scaled(traits.skin, 0.55), 0.8);
  ctx.lineWidth = Math.max(1, head.fw * 0.025);
  for (const s of [-1, 1]) {
    ctx.beginPath();
    ctx.arc(
      tipX + s * w * 0.62,
      head.y(tip - 0.015),
      w * 0.28,
      s > 0 ? -1.2 : Math.PI - 1.3,
      s > 0 ? 1.3 : Math.PI + 1.2,
    );
    ctx.stroke();
    ctx.fillStyle = 'rgba(45,20,15,0.85)';
    ctx.beginPath();
    ctx.ellipse(
      tipX + s * w * 0.33 * head.squeeze(s * 0.1),
      head.y(tip + 0.01),
      w * 0.17,
      w * 0.09,
      s * 0.3,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }
}

function mouth(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot): void {
  const y = head.y(traits.mouthLevel);
  const half = traits.mouthWidth * (1 + 0.2 * shot.smile);
  const left = head.x(-half);
  const right = head.x(half);
  const mid = head.x(0, 0.15);
  const lift = head.fh * 0.06 * shot.smile;
  const up = head.fh * traits.upperLip;
  const down = head.fh * traits.lowerLip;
  const open = shot.smile > 0.55 ? head.fh * 0.03 * shot.smile : 0;
  // Lower lip, then teeth where the smile opens the mouth, then the upper lip.
  ctx.fillStyle = rgba(traits.lips);
  ctx.beginPath();
  ctx.moveTo(left, y - lift);
  ctx.quadraticCurveTo(mid, y + open + down * 1.9, right, y - lift);
  ctx.quadraticCurveTo(mid, y + open * 0.6, left, y - lift);
  ctx.fill();
  if (open > 0) {
    ctx.fillStyle = 'rgb(236,232,222)';
    ctx.beginPath();
    ctx.moveTo(left + 2, y - lift);
    ctx.quadraticCurveTo(mid, y + open * 1.2, right - 2, y - lift);
    ctx.quadraticCurveTo(mid, y - open * 0.2, left + 2, y - lift);
    ctx.fill();
  }
  ctx.fillStyle = rgba(scaled(traits.lips, 0.82));
  ctx.beginPath();
  ctx.moveTo(left, y - lift);
  ctx.quadraticCurveTo((left + mid) / 2, y - up * 1.6, mid, y - up * 1.1);
  ctx.quadraticCurveTo((right + mid) / 2, y - up * 1.6, right, y - lift);
  ctx.quadraticCurveTo(mid, y - open * 0.4 + up * 0.2, left, y - lift);
  ctx.fill();
  ctx.strokeStyle = 'rgba(70,25,25,0.8)';
  ctx.lineWidth = Math.max(1, head.fw * 0.02);
  ctx.beginPath();
  ctx.moveTo(left, y - lift);
  ctx.quadraticCurveTo(mid, y + up * 0.5 + open * 0.5, right, y - lift);
  ctx.stroke();
  const shine = ctx.createRadialGradient(mid, y + down * 0.8, 0, mid, y + down * 0.8, down * 1.5);
  shine.addColorStop(0, 'rgba(255,230,230,0.3)');
  shine.addColorStop(1, 'rgba(255,230,230,0)');
  ctx.fillStyle = shine;
  ctx.fillRect(left, y, right - left, down * 2);
  // The folds from the nose, deeper with a smile and with age.
  ctx.strokeStyle = rgba(scaled(traits.skin, 0.65), 0.25 + 0.4 * shot.smile + 0.3 * traits.age);
  ctx.lineWidth = Math.max(1, head.fw * 0.025);
  for (const s of [-1, 1]) {
    ctx.beginPath();
    ctx.moveTo(head.x(s * (traits.noseWidth + 0.1)), head.y(traits.eyeLevel + traits.noseLength));
    ctx.quadraticCurveTo(
      head.x(s * (half + 0.12)),
      head.y(traits.mouthLevel - 0.1),
      head.x(s * (half + 0.1)),
      y + head.fh * 0.05,
    );
    ctx.stroke();
  }
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
  hairFront(ctx, head, traits, random);
  ctx.restore();
  // The light's colour over everything, as a camera without white balance records it.
  ctx.globalCompositeOperation = 'multiply';
  ctx.fillStyle = rgba(shot.tint);
  ctx.fillRect(0, 0, width, height);
  ctx.globalCompositeOperation = 'source-over';
  return canvas;
}
