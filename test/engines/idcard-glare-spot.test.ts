/**
 * The glare spot fitted to the backdrop's lightening: its middle, size and strength are found
 * closely even where the head hides the middle of the spot, and a backdrop with no room to
 * lighten (near white) shows none. A spot fitted too small beside a plane that took part of it
 * is moved to where the backdrop without it is a plane.
 */
import { describe, expect, it } from 'vitest';
import type { Plane } from '../../src/engines/idcard/plane.js';
import { fitSpot } from '../../src/engines/idcard/checks/portrait/glare.js';
import { PHOTO_HEIGHT, PHOTO_WIDTH } from '../../src/engines/idcard/checks/portrait/head.js';
import { refinedSpot } from '../../src/engines/idcard/checks/portrait/spot-refine.js';

/** g of `spot` over a photo's backdrop, NaN over a head-and-shoulders shape in the middle. */
function litBackdrop(spot: { x: number; y: number; radius: number; strength: number }) {
  const g = new Float32Array(PHOTO_WIDTH * PHOTO_HEIGHT);
  for (let y = 0; y < PHOTO_HEIGHT; y++)
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      const head = ((x - 77) / 45) ** 2 + ((y - 80) / 60) ** 2 < 1 || y > 150;
      const d2 = (x - spot.x) ** 2 + (y - spot.y) ** 2;
      g[y * PHOTO_WIDTH + x] = head ? Number.NaN : spot.strength * Math.exp(-d2 / (2 * spot.radius ** 2));
    }
  return g;
}

describe('the glare spot', () => {
  it('is found to a pixel or two, its size to a tenth, with its middle over the head', () => {
    for (const spot of [
      { x: 61.5, y: 40.3, radius: 20.5, strength: 0.5 },
      { x: 118.7, y: 61.2, radius: 15.2, strength: 0.4 },
    ]) {
      const room = new Float32Array(PHOTO_WIDTH * PHOTO_HEIGHT).fill(30);
      const found = fitSpot(litBackdrop(spot), room, PHOTO_WIDTH, PHOTO_HEIGHT)!;
      expect(found).not.toBeNull();
      expect(Math.hypot(found.x - spot.x, found.y - spot.y)).toBeLessThan(2);
      expect(Math.abs(found.radius / spot.radius - 1)).toBeLessThan(0.1);
      expect(Math.abs(found.strength - spot.strength)).toBeLessThan(0.05);
    }
  });

  it('is not seen on a near-white backdrop, where a level of noise reads as a large g', () => {
    const spot = { x: 61.5, y: 40.3, radius: 20.5, strength: 0.5 };
    const room = new Float32Array(PHOTO_WIDTH * PHOTO_HEIGHT).fill(4);
    expect(fitSpot(litBackdrop(spot), room, PHOTO_WIDTH, PHOTO_HEIGHT)).toBeNull();
  });

  it('fitted too small beside a plane that took part of it, is moved to where the backdrop without it is a plane', () => {
    // A light blue backdrop darkening to the right and down, under a large spot in a top corner.
    const spot = { x: 12, y: 40, radius: 45, strength: 0.55 };
    const base = [190, 212, 226];
    const planes: Plane[] = base.map((level) => {
      const data = new Float32Array(PHOTO_WIDTH * PHOTO_HEIGHT);
      for (let y = 0; y < PHOTO_HEIGHT; y++)
        for (let x = 0; x < PHOTO_WIDTH; x++) {
          const g =
            spot.strength * Math.exp(-((x - spot.x) ** 2 + (y - spot.y) ** 2) / (2 * spot.radius ** 2));
          const backdrop = level - 0.08 * x - 0.05 * y;
          data[y * PHOTO_WIDTH + x] = backdrop * (1 - g) + 255 * g;
        }
      return { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, data };
    });
    // The backdrop beside a head and shoulders, every other pixel each way.
    const samples: number[] = [];
    for (let y = 0; y < PHOTO_HEIGHT; y += 2)
      for (let x = 0; x < PHOTO_WIDTH; x += 2)
        if (!(((x - 77) / 45) ** 2 + ((y - 80) / 60) ** 2 < 1 || y > 150)) samples.push(y * PHOTO_WIDTH + x);
    const found = refinedSpot(planes, Int32Array.from(samples), {
      x: 20,
      y: 47,
      radius: 21.6,
      strength: 0.3,
    });
    expect(Math.hypot(found.x - spot.x, found.y - spot.y)).toBeLessThan(4);
    expect(Math.abs(found.radius / spot.radius - 1)).toBeLessThan(0.1);
    expect(Math.abs(found.strength - spot.strength)).toBeLessThan(0.05);
  });
});
