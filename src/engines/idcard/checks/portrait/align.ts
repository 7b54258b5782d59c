/**
 * Registration of one head onto another: photos of one person differ by a few pixels of framing,
 * a few degrees of roll and a few per cent of scale, so before comparing, the second head's
 * window is moved, turned and scaled to fit the first as well as it can. A coarse search over
 * shifts and scales, then a descent over all four parameters; the fit is the outline (silhouette)
 * plus the gradient structure (HOG), which both survive blur, noise and print.
 */
import type { Head } from './head.js';
import { descriptorDistance, shapeOf, UPRIGHT, type Gradients, type Pose, type Shape } from './shape.js';
import type { Tones } from './tones.js';

export interface Described {
  head: Head;
  tones: Tones;
  /** 1 where the head is hair (hairMapOf). */
  hairy: Uint8Array;
  gradients: Gradients;
}

/** The coarse search tries shifts up to this many working pixels, every other pixel… */
const COARSE_SHIFT = 4;
/**
 * …at each of these scales: a photo cut a few per cent too small or too large on a card makes its
 * head that much larger or smaller, more than a descent from scale 1 reliably finds its way across.
 */
const COARSE_SCALES = [0.9, 1, 1.1];
/** The descent's step per parameter (pixels, radians, scale factor)… */
const STEPS: Pose = { dx: 1, dy: 1, angle: 0.02, scale: 0.025 };
/** …and how far it may go: beyond, two photos are not of one framing. */
const LIMITS: Pose = { dx: 8, dy: 8, angle: 0.1, scale: 0.15 };
/** Descent rounds at most. */
const ROUNDS = 12;

const misfit = (a: Shape, b: Shape) =>
  descriptorDistance(a.hog, b.hog) + descriptorDistance(a.silhouette, b.silhouette);

/** The pose of `moving`'s window that best fits `fixed`'s upright one, and the shape seen there. */
export function register(fixed: Shape, moving: Described): { pose: Pose; shape: Shape } {
  const look = (pose: Pose) => shapeOf(moving.head, moving.hairy, moving.gradients, pose);
  let best = { pose: UPRIGHT, shape: look(UPRIGHT) };
  let bestMisfit = misfit(fixed, best.shape);
  const consider = (pose: Pose) => {
    const shape = look(pose);
    const m = misfit(fixed, shape);
    if (m < bestMisfit) {
      best = { pose, shape };
      bestMisfit = m;
      return true;
    }
    return false;
  };
  for (const scale of COARSE_SCALES)
    for (let dy = -COARSE_SHIFT; dy <= COARSE_SHIFT; dy += 2)
      for (let dx = -COARSE_SHIFT; dx <= COARSE_SHIFT; dx += 2)
        if (dx !== 0 || dy !== 0 || scale !== 1) consider({ ...UPRIGHT, dx, dy, scale });
  const keys = Object.keys(STEPS) as (keyof Pose)[];
  for (let round = 0; round < ROUNDS; round++) {
    let moved = false;
    for (const key of keys)
      for (const sign of [-1, 1]) {
        const value = best.pose[key] + sign * STEPS[key];
        const centre = key === 'scale' ? 1 : 0;
        if (Math.abs(value - centre) > LIMITS[key] + 1e-9) continue;
        if (consider({ ...best.pose, [key]: value })) moved = true;
      }
    if (!moved) break;
  }
  return best;
}
