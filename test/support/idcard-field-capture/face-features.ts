/**
 * The features a face detector keys on, each drawn in place on the turned head: eyes with
 * sclera, iris, pupil, catch-light, lids, lashes and creases; brows of single strokes; a shaded
 * nose with its nostrils; lips (teeth when smiling) and the folds beside them; a person's marks.
 */
import type { Random } from '../../../src/engines/random.js';
import type { FaceTraits, Shot } from './face-traits.js';
import { rgba, scaled, type Ctx, type Head } from './face-geometry.js';

export function eye(
  ctx: Ctx,
  head: Head,
  traits: FaceTraits,
  shot: Shot,
  side: -1 | 1,
  random: Random,
): void {
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

export function brow(ctx: Ctx, head: Head, traits: FaceTraits, side: -1 | 1, random: Random): void {
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

export function nose(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot): void {
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

export function mouth(ctx: Ctx, head: Head, traits: FaceTraits, shot: Shot): void {
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

/** The marks that stay with a person: a moustache and stubble, a mole. */
export function marks(ctx: Ctx, head: Head, traits: FaceTraits): void {
  if (traits.beard > 0) {
    const y = head.y(traits.mouthLevel);
    ctx.fillStyle = rgba(traits.hair, 0.55 * traits.beard);
    ctx.beginPath();
    ctx.moveTo(head.x(-traits.mouthWidth * 1.05), y - head.fh * 0.01);
    ctx.quadraticCurveTo(
      head.x(0, 0.15),
      y - head.fh * 0.13,
      head.x(traits.mouthWidth * 1.05),
      y - head.fh * 0.01,
    );
    ctx.quadraticCurveTo(
      head.x(0, 0.15),
      y - head.fh * 0.05,
      head.x(-traits.mouthWidth * 1.05),
      y - head.fh * 0.01,
    );
    ctx.fill();
    ctx.fillStyle = rgba(traits.hair, 0.18 * traits.beard);
    ctx.beginPath();
    ctx.moveTo(head.x(-traits.jaw * 0.95), head.y(0.45));
    ctx.quadraticCurveTo(head.x(0), head.y(1.15), head.x(traits.jaw * 0.95), head.y(0.45));
    ctx.lineTo(head.x(traits.mouthWidth), head.y(traits.mouthLevel + 0.08));
    ctx.quadraticCurveTo(
      head.x(0),
      head.y(traits.mouthLevel + 0.2),
      head.x(-traits.mouthWidth),
      head.y(traits.mouthLevel + 0.08),
    );
    ctx.closePath();
    ctx.fill();
  }
  if (traits.mole) {
    const [across, down] = traits.mole;
    ctx.fillStyle = 'rgba(60,35,25,0.85)';
    ctx.beginPath();
    ctx.arc(
      head.x(across),
      head.y(down),
      Math.max(1.2, head.fw * 0.03 * head.squeeze(across)),
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }
}
