/**
 * Value noise for drawing forms and textures: ridgelines, flame heights, cloud puffs, marble veins. Lattices wrap, so a
 * form is defined at every world coordinate and the scene does not depend on how far the camera
 * travels; the same seed paints the same place the same way.
 */
import type { Random } from '../random.js';

const SIZE = 256;
const smooth = (t: number) => t * t * (3 - 2 * t);

/** Smooth noise in [0, 1] along x, one lattice point per unit. */
function noise1(random: Random): (x: number) => number {
  const lattice = Float32Array.from({ length: SIZE }, () => random());
  return (x) => {
    const floor = Math.floor(x);
    const i = floor & (SIZE - 1);
    const a = lattice[i]!;
    return a + (lattice[(i + 1) & (SIZE - 1)]! - a) * smooth(x - floor);
  };
}

/** Octaves of noise1, each twice as fine and half as strong; in [0, 1]. */
export function fbm1(random: Random, octaves: number): (x: number) => number {
  const layers = Array.from({ length: octaves }, () => noise1(random));
  const norm = 1 - 0.5 ** octaves;
  return (x) => {
    let sum = 0;
    let weight = 0.5;
    let scale = 1;
    for (const layer of layers) {
      sum += weight * layer(x * scale);
      weight /= 2;
      scale *= 2;
    }
    return sum / norm;
  };
}

/** Smooth noise in [0, 1] over the plane, one lattice point per unit. */
export function noise2(random: Random): (x: number, y: number) => number {
  const lattice = Float32Array.from({ length: SIZE * SIZE }, () => random());
  const at = (x: number, y: number) => lattice[(y & (SIZE - 1)) * SIZE + (x & (SIZE - 1))]!;
  return (x, y) => {
    const fx0 = Math.floor(x);
    const fy0 = Math.floor(y);
    const fx = smooth(x - fx0);
    const fy = smooth(y - fy0);
    const top = at(fx0, fy0) + (at(fx0 + 1, fy0) - at(fx0, fy0)) * fx;
    const bottom = at(fx0, fy0 + 1) + (at(fx0 + 1, fy0 + 1) - at(fx0, fy0 + 1)) * fx;
    return top + (bottom - top) * fy;
  };
}
