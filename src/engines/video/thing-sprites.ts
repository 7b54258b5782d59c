/**
 * A thing from the library as the scene shows it: its drawing rasterised at its size, lit by the
 * hour (lights keep their own glow), hazier the farther it stands, facing the way it goes, with a
 * soft shadow under what stands on the ground. A sprite is a small layer whose origin is the
 * thing's foot, so it can be laid once into the scene or into every frame as it moves.
 */
import type { Rgb } from '../paint/index.js';
import { inkBounds, rasterOf } from '../artwork/index.js';
import { mixRgb, over } from './draw.js';
import type { Layer } from './layer.js';
import type { Stage } from './stage.js';
import type { PlacedThing } from './thing-layout.js';

/** How far haze veils a thing at a depth below the horizon (frame heights). */
const hazeAt = (depth: number) => Math.max(0, 0.28 - depth * 1.1);

export function spriteOf(p: PlacedThing, s: Stage): Layer {
  // The drawing's visible part sets the size: Noto leaves a margin of its own around each one.
  const probe = rasterOf(p.thing.art, 128);
  const [, top, , bottom] = inkBounds(probe);
  const side = Math.max(4, Math.round((p.height * 128) / Math.max(1, bottom - top)));
  const art = rasterOf(p.thing.art, side);
  const foot = Math.round((bottom / 128) * side);
  const shadowed = p.thing.habitat === 'ground';
  const below = shadowed ? Math.ceil(0.06 * side) : 0;
  const height = foot + below;
  const sprite: Layer = {
    width: side,
    height,
    data: new Int32Array(side * height),
    ox: Math.round(side / 2),
    oy: foot,
    density: 1,
  };
  if (shadowed) {
    const [rx, ry] = [0.3 * side, 0.05 * side];
    const strength = (s.night ? 0.18 : 0.32) * 255;
    for (let y = 0; y < sprite.height; y += 1)
      for (let x = 0; x < side; x += 1) {
        const d = ((x - sprite.ox) / rx) ** 2 + ((y - foot) / ry) ** 2;
        if (d < 1) sprite.data[y * side + x] = (Math.round(strength * (1 - d)) << 24) | 0;
      }
  }
  // Things keep some of their own colour at night: a scene is of them, not of the dark.
  const light: Rgb = p.thing.glows ? [1, 1, 1] : mixRgb(s.light, [1, 1, 1], 0.4);
  const haze = p.thing.glows ? 0 : hazeAt(p.depth);
  const [hr, hg, hb] = s.skyLow;
  for (let y = 0; y < Math.min(foot, side); y += 1)
    for (let x = 0; x < side; x += 1) {
      const sx = p.facing === 1 ? side - 1 - x : x;
      const o = (y * side + sx) * 4;
      const a = art.data[o + 3]!;
      if (a === 0) continue;
      const k = a / 255;
      const r = (art.data[o]! * light[0] * (1 - haze) + hr * haze) * k;
      const g = (art.data[o + 1]! * light[1] * (1 - haze) + hg * haze) * k;
      const b = (art.data[o + 2]! * light[2] * (1 - haze) + hb * haze) * k;
      const under = sprite.data[y * side + x]!;
      const rest = 1 - k;
      const ua = (under >>> 24) * rest;
      sprite.data[y * side + x] =
        (Math.round(a + ua) << 24) |
        (Math.round(Math.min(255, b)) << 16) |
        (Math.round(Math.min(255, g)) << 8) |
        Math.round(Math.min(255, r));
    }
  return sprite;
}

/** Lays a sprite into a density-1 layer with its origin at world (x, y). */
export function stamp(layer: Layer, sprite: Layer, x: number, y: number): void {
  const left = Math.round(layer.ox + x) - sprite.ox;
  const top = Math.round(layer.oy + y) - sprite.oy;
  for (let sy = 0; sy < sprite.height; sy += 1) {
    const py = top + sy;
    if (py < 0 || py >= layer.height) continue;
    for (let sx = 0; sx < sprite.width; sx += 1) {
      const px = left + sx;
      const src = sprite.data[sy * sprite.width + sx]!;
      if (src !== 0 && px >= 0 && px < layer.width) over(layer.data, py * layer.width + px, src);
    }
  }
}
