/**
 * Light falling on the card where it lies: a shadow across part of it (the phone or a hand
 * between the lamp and the card), a glare spot where the laminate mirrors the lamp, and the
 * colour of the room's light.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';

export interface Lighting {
  shadow: boolean;
  glare: boolean;
  /** Multiplied into every pixel: warm tungsten, cool daylight or neutral. */
  cast: [number, number, number];
}

export function chooseLighting(random: Random, scanned: boolean): Lighting {
  if (scanned) return { shadow: false, glare: false, cast: [255, 255, 252] };
  const warmth = random() * 2 - 1;
  return {
    shadow: random() < 0.35,
    glare: random() < 0.25,
    cast: [255, Math.round(246 - 12 * warmth), Math.round(236 - 40 * warmth)],
  };
}

export function light(
  ctx: SKRSContext2D,
  width: number,
  height: number,
  lighting: Lighting,
  random: Random,
): void {
  ctx.save();
  ctx.globalCompositeOperation = 'multiply';
  ctx.fillStyle = `rgb(${lighting.cast.join(',')})`;
  ctx.fillRect(0, 0, width, height);
  if (lighting.shadow) {
    const angle = random() * Math.PI * 2;
    const [dx, dy] = [Math.cos(angle) * width, Math.sin(angle) * height];
    const shade = ctx.createLinearGradient(
      width / 2 - dx / 2,
      height / 2 - dy / 2,
      width / 2 + dx / 2,
      height / 2 + dy / 2,
    );
    const edge = 0.35 + random() * 0.4;
    const depth = 0.55 + random() * 0.25;
    shade.addColorStop(0, 'rgb(255,255,255)');
    shade.addColorStop(edge, 'rgb(255,255,255)');
    shade.addColorStop(
      Math.min(1, edge + 0.08),
      `rgb(${[0, 1, 2].map((i) => Math.round(255 * depth - i * 6)).join(',')})`,
    );
    shade.addColorStop(1, `rgb(${[0, 1, 2].map((i) => Math.round(255 * depth - i * 6)).join(',')})`);
    ctx.fillStyle = shade;
    ctx.fillRect(0, 0, width, height);
  }
  ctx.restore();
  if (lighting.glare) {
    // Glare is kept off most of the text, as a holder tilting the card to read it would.
    const x = width * (0.2 + random() * 0.6);
    const y = height * (random() < 0.5 ? 0.08 : 0.92);
    const r = width * (0.06 + random() * 0.08);
    const spot = ctx.createRadialGradient(x, y, 0, x, y, r);
    spot.addColorStop(0, 'rgba(255,255,255,0.75)');
    spot.addColorStop(0.5, 'rgba(255,255,255,0.3)');
    spot.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = spot;
    ctx.fillRect(0, 0, width, height);
  }
}
