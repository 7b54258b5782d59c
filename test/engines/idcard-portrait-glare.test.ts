/**
 * A glare on the photo: a spot of light on the backdrop beside the head lightens it towards white,
 * and is still backdrop, not hair: the head is found without it and the photo compares as its
 * holder and not as anyone else.
 */
import { describe, expect, it } from 'vitest';
import type { Canvas } from '../../src/engines/canvas.js';
import { portraitSimilarity } from '../../src/engines/idcard/checks/index.js';
import { findHead, PHOTO_HEIGHT, PHOTO_WIDTH } from '../../src/engines/idcard/checks/portrait/head.js';
import { drawPortrait } from '../support/idcard-specimen/index.js';

/**
 * `photo` under a round glare centred at (x, y) (shares of its size), lightening by up to
 * `strength`, its radius `radius` of the photo's width; `light` is the light's slope across the
 * photo, left to right and top to bottom (a phone's light is never even).
 */
function glared(
  photo: Canvas,
  x: number,
  y: number,
  strength: number,
  radius = 0.12,
  light: [number, number] = [0, 0],
): Canvas {
  const out = { ...photo, data: Uint8Array.from(photo.data) };
  const r = radius * photo.width;
  for (let py = 0; py < photo.height; py++)
    for (let px = 0; px < photo.width; px++) {
      const d2 = (px - x * photo.width) ** 2 + (py - y * photo.height) ** 2;
      const g = strength * Math.exp(-d2 / (2 * r * r));
      const lit = 1 + light[0] * (px / photo.width - 0.5) + light[1] * (py / photo.height - 0.5);
      const i = (py * photo.width + px) * 4;
      for (let c = 0; c < 3; c++)
        out.data[i + c] = Math.min(255, Math.round(out.data[i + c]! * lit * (1 - g) + 255 * g));
    }
  return out;
}

describe('a glare on the photo', () => {
  it('is backdrop, not hair, and the photo still compares as its holder only', () => {
    for (const seed of [11, 12]) {
      const photo = drawPortrait(seed, 3);
      const lit = glared(photo, 0.85, 0.22, 0.6);
      const head = findHead(lit)!;
      // The glare's middle, in the working raster.
      const spot = Math.round(0.22 * PHOTO_HEIGHT) * PHOTO_WIDTH + Math.round(0.85 * PHOTO_WIDTH);
      expect(head.foreground[spot], `glare read as head, portrait ${seed}`).toBe(0);
      expect(portraitSimilarity(lit, drawPortrait(seed, 1)), `holder ${seed}`).toBeGreaterThanOrEqual(70);
      expect(portraitSimilarity(lit, drawPortrait(seed + 100, 1)), `stranger ${seed}`).toBeLessThan(70);
    }
  });

  it('over the hair and the face beside a tinted backdrop, is taken off before the photo compares', () => {
    // Light blue backdrops: the glare's spot is fitted where it lights the backdrop and taken off
    // the hair and the face it also lights (these four scored 0.3 to 52 with the spot left on).
    for (const seed of [16, 17, 25, 27]) {
      const photo = drawPortrait(seed, 3);
      expect(photo.data[2]! - photo.data[0]!, `backdrop of ${seed} is blue`).toBeGreaterThan(20);
      const lit = glared(photo, 0.4, 0.2, 0.6);
      expect(portraitSimilarity(lit, drawPortrait(seed, 1)), `holder ${seed}`).toBeGreaterThanOrEqual(70);
      expect(portraitSimilarity(lit, drawPortrait(seed + 100, 1)), `stranger ${seed}`).toBeLessThan(70);
    }
  });

  it('large, in a top corner under an uneven light, is fitted with the backdrop and taken off', () => {
    // The backdrop's plane fitted under such a glare takes part of it into its slopes: the spot
    // first fitted beside it was too small, and the backdrop far from it stood out as foreground
    // (these scored 38 and 20). In the other, the head found with the glare on is no head at all,
    // and the one found with the spot taken off compares (it scored 0).
    const corner = { x: 0, y: 0.2, strength: 0.55, radius: 0.3, light: [0.05, -0.05] as [number, number] };
    const cases = [
      { seed: 25, ...corner },
      { seed: 27, ...corner },
      { seed: 26, x: 0.15, y: 0.12, strength: 0.55, radius: 0.22, light: [0, 0] as [number, number] },
    ];
    for (const { seed, x, y, strength, radius, light } of cases) {
      const lit = glared(drawPortrait(seed, 3), x, y, strength, radius, light);
      expect(portraitSimilarity(lit, drawPortrait(seed, 1)), `holder ${seed}`).toBeGreaterThanOrEqual(70);
      expect(portraitSimilarity(lit, drawPortrait(seed + 100, 1)), `stranger ${seed}`).toBeLessThan(70);
    }
  });
});
