/**
 * Where a river runs: from a point on the horizon toward the viewer, widening as it nears (the
 * perspective of a flat band) and winding from side to side. The land painter fills it, and the
 * layout floats boats on it and keeps houses and walkers on its banks.
 */
import { formRandom, type Stage } from './stage.js';

export interface River {
  /** World x of the river's middle at world y (below the horizon). */
  centre(y: number): number;
  /** Half its width at world y; nothing at the horizon. */
  halfWidth(y: number): number;
}

export function riverOf(s: Stage): River {
  const random = formRandom(s, 'river');
  const u = s.unit;
  const start = (random() - 0.5) * 0.3 * s.width;
  const sway = (0.08 + random() * 0.08) * u * (random() < 0.5 ? -1 : 1);
  const phase = random() * Math.PI * 2;
  return {
    centre: (y) => {
      const depth = Math.max(0, y - s.horizon) / u;
      return start + sway * Math.sin(depth / 0.14 + phase) * Math.min(1, depth / 0.15);
    },
    halfWidth: (y) => {
      const depth = Math.max(0, y - s.horizon) / u;
      return depth > 0 ? (0.004 + 0.42 * depth) * u : 0;
    },
  };
}
