/**
 * Lily pads: flat green discs floating on still water, each with the notch a lily leaf has, a
 * darker rim where its edge dips, and a flower on some. They lie on a pond, along a river's
 * middle, or on the near sea; a frog sits on one (thing-layout.ts).
 */
import type { Rgb } from '../paint/index.js';
import { fillPolygon, mixRgb, shade, disc, type Point } from './draw.js';
import type { Layer } from './layer.js';
import { onPond, pondOf } from './pond.js';
import { riverOf } from './river.js';
import { formRandom, lit, type Stage } from './stage.js';
import type { Form } from './vocabulary.js';

export interface LilyPad {
  x: number;
  /** World y of its middle. */
  y: number;
  /** Half its width; it looks a third as deep at this low angle. */
  r: number;
  /** Where its notch points, radians. */
  notch: number;
  flower: boolean;
}

const COUNT = 9;
const scaleAt = (depth: number) => 0.55 + 1.5 * depth;

/** The pads of a scene, back to front, on the first water its forms have. */
export function lilyPadsOf(s: Stage, forms: readonly Form[]): LilyPad[] {
  const random = formRandom(s, 'lilypads');
  const u = s.unit;
  const pond = forms.includes('pond') ? pondOf(s) : undefined;
  const river = !pond && forms.includes('river') ? riverOf(s) : undefined;
  const pads: LilyPad[] = [];
  for (let tries = 0; pads.length < COUNT && tries < COUNT * 8; tries += 1) {
    let [x, y] = [(random() - 0.5) * 0.9 * s.width, s.horizon + (0.08 + random() * 0.3) * u];
    if (pond) [x, y] = onPond(pond, random, 0.22);
    else if (river) {
      y = s.horizon + (0.14 + random() * 0.3) * u;
      x = river.centre(y) + (random() - 0.5) * 1.2 * river.halfWidth(y);
    }
    const r = 0.035 * u * scaleAt((y - s.horizon) / u) * (0.75 + 0.5 * random());
    // Pads lie apart: a new one does not cover another.
    if (pads.some((p) => Math.abs(p.x - x) < p.r + r && Math.abs(p.y - y) < (p.r + r) * 0.4)) continue;
    pads.push({ x, y, r, notch: random() * Math.PI * 2, flower: random() < 0.35 });
  }
  // The nearest is a broad leaf in front, large enough for a frog to sit on.
  const near = pads.reduce<LilyPad | undefined>((a, p) => (a && a.y > p.y ? a : p), undefined);
  if (near) near.r *= 1.8;
  return pads.sort((a, b) => a.y - b.y);
}

/** The pad's outline: an ellipse with a wedge cut from its middle to its edge. */
function outline(p: LilyPad, lift = 0): Point[] {
  const points: Point[] = [[p.x, p.y + lift]];
  const [half, steps] = [0.32, 28];
  for (let k = 0; k <= steps; k += 1) {
    const a = p.notch + half + ((2 * Math.PI - 2 * half) * k) / steps;
    points.push([p.x + p.r * Math.cos(a), p.y + lift + p.r * 0.34 * Math.sin(a)]);
  }
  return points;
}

export function paintLilyPads(layer: Layer, s: Stage, forms: readonly Form[]): void {
  const leaf = lit(s, mixRgb(s.palette.colors[1]!, [66, 142, 62], 0.8));
  const bloom: Rgb[] = [lit(s, [246, 170, 200]), lit(s, [250, 246, 240])];
  for (const pad of lilyPadsOf(s, forms)) {
    fillPolygon(layer, outline(pad, pad.r * 0.08), shade(leaf, 0.6));
    fillPolygon(layer, outline(pad), leaf);
    if (!pad.flower) continue;
    const [fx, fy] = [pad.x - pad.r * 0.3, pad.y - pad.r * 0.12];
    for (let k = 0; k < 5; k += 1) {
      const a = (k / 5) * Math.PI * 2;
      const [px, py] = [fx + 0.16 * pad.r * Math.cos(a), fy - 0.1 * pad.r + 0.08 * pad.r * Math.sin(a)];
      disc(layer, px, py, 0.14 * pad.r, bloom[k % 2]!, 1);
    }
    disc(layer, fx, fy - 0.12 * pad.r, 0.08 * pad.r, lit(s, [250, 214, 90]), 1);
  }
}
