/**
 * Where a pond lies: an oval of still water in the land, seen at a low angle, so much wider
 * than it is deep. The land painter fills it, and the layouts float boats, ducks and lily pads
 * on it and keep what walks or stands on its banks.
 */
import { formRandom, type Stage } from './stage.js';

export interface Pond {
  /** World x and y of its middle. */
  x: number;
  y: number;
  /** Half its width and half its depth, in world units. */
  rx: number;
  ry: number;
}

export function pondOf(s: Stage): Pond {
  const random = formRandom(s, 'pond');
  const u = s.unit;
  return {
    x: (random() - 0.5) * 0.2 * s.width,
    y: s.horizon + (0.25 + random() * 0.03) * u,
    rx: (0.28 + random() * 0.05) * s.width,
    ry: (0.09 + random() * 0.015) * u,
  };
}

/** Half the pond's width at world y (0 off it). */
export function pondHalfAt(pond: Pond, y: number): number {
  const t = (y - pond.y) / pond.ry;
  return t * t < 1 ? pond.rx * Math.sqrt(1 - t * t) : 0;
}

/** A point on the water, `inset` (0..1) of the way from the shore toward the middle at least. */
export function onPond(pond: Pond, random: () => number, inset = 0.25): [x: number, y: number] {
  const reach = 1 - inset;
  const angle = random() * Math.PI * 2;
  const r = reach * Math.sqrt(random());
  return [pond.x + pond.rx * r * Math.cos(angle), pond.y + pond.ry * r * Math.sin(angle)];
}

/** `x` moved sideways onto the bank, clear of the water by `margin`, where `y` lies on the pond. */
export function offPond(pond: Pond, x: number, y: number, margin: number): number {
  const half = pondHalfAt(pond, y);
  if (half === 0) return x;
  const off = x - pond.x;
  const clear = half + margin;
  return Math.abs(off) < clear ? pond.x + (off < 0 ? -clear : clear) : x;
}

/** `y` moved onto the near bank, clear of the water by `margin`, where (`x`, `y`) lies on the pond. */
export function beforePond(pond: Pond, x: number, y: number, margin: number): number {
  const half = pondHalfAt(pond, y);
  return half > 0 && Math.abs(x - pond.x) < half + margin ? Math.max(y, pond.y + pond.ry + margin) : y;
}
