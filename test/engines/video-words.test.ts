/**
 * The scene shows what the prompt names and nothing else, measured on painted frames: the hour
 * in the sky's colours, the horizon where it is drawn, each named thing's silhouette (found by
 * its difference from the same scene with that thing in the negative prompt, or against the
 * sky on its own), no flower-coloured specks where no flower was asked for, the same things for
 * every seed, and things that walk or drive moving between frames.
 */
import { describe, expect, it } from 'vitest';
import type { Canvas } from '../../src/engines/canvas.js';
import { sceneFrames } from '../../src/engines/video/render.js';
import { planScene } from '../../src/engines/video/scene.js';
import { readPrompt } from '../../src/engines/video/words.js';
import {
  blobs,
  boxOf,
  brightestRow,
  columnsOf,
  difference,
  flowerSpecks,
  heightOf,
  horizonOf,
  luma,
  meanColor,
  rgbAt,
  standouts,
  widthOf,
  type Blob,
  type Column,
} from '../support/scene-measure.js';

const [W, H] = [256, 144];

interface Shot {
  prompt: string;
  seed?: number;
  negativePrompt?: string;
  cfgScale?: number;
  frame?: number;
  width?: number;
}

/** One frame as the engine paints it, the camera held still. */
function paint({ prompt, seed = 1, negativePrompt, cfgScale, frame = 0, width = W }: Shot): Canvas {
  const painter = sceneFrames({
    seed,
    prompt,
    negativePrompt,
    cfgScale,
    width,
    height: H,
    fps: 24,
    frames: Math.max(frame + 1, 2),
    quality: 'std',
    camera: { kind: 'fixed' },
  });
  const pixels = new Int32Array(width * H);
  painter(frame, pixels);
  return { width, height: H, data: new Uint8Array(pixels.buffer) };
}

/** What a named thing adds: the scene against the same scene with the thing unwanted. */
function silhouette(shot: Shot, noun: string): Blob {
  const box = boxOf(difference(paint(shot), paint({ ...shot, negativePrompt: noun }), 24));
  expect(box, `${shot.prompt}: nothing drawn for ${noun}`).toBeDefined();
  return box!;
}

const seeds = [1, 2, 3];

describe('the hour of the day', () => {
  const sky = (time: string, seed: number) => {
    const f = paint({ prompt: `an empty field at ${time}`, seed });
    const horizon = horizonOf(f);
    return {
      horizon,
      top: meanColor(f, 0, Math.round(horizon / 3)),
      low: meanColor(f, horizon - Math.round(horizon / 4), horizon - 1),
      ground: meanColor(f, horizon + 2, H),
    };
  };

  it('sets the sky: dusk and night darker than noon, dusk warmer, night bluer', () => {
    for (const seed of seeds) {
      const [noon, dawn, dusk, night] = [
        sky('noon', seed),
        sky('dawn', seed),
        sky('dusk', seed),
        sky('night', seed),
      ];
      const warmth = (c: number[]) => c[0]! - c[2]!;
      console.log(seed, { noon, dawn, dusk, night });
      // Noon: a blue sky, lighter toward the horizon.
      expect(noon.top[2]).toBeGreaterThan(noon.top[0] + 60);
      expect(luma(noon.low)).toBeGreaterThan(luma(noon.top));
      // Dusk: darker overhead and warm at the horizon; dawn warm too.
      expect(luma(dusk.top)).toBeLessThan(luma(noon.top) - 30);
      expect(warmth(dusk.low)).toBeGreaterThan(warmth(noon.low) + 100);
      expect(warmth(dawn.low)).toBeGreaterThan(warmth(noon.low) + 60);
      // Night: darkest of all, and blue rather than warm.
      expect(luma(night.top)).toBeLessThan(40);
      expect(luma(night.low)).toBeLessThan(luma(dusk.low) - 60);
      expect(night.low[2]).toBeGreaterThan(night.low[0] + 20);
      // The land lies in the hour's light too.
      expect(luma(dusk.ground)).toBeLessThan(luma(noon.ground));
      expect(luma(night.ground)).toBeLessThan(luma(dusk.ground));
    }
  });

  it('draws the horizon where the scene puts it, near the middle of the frame', () => {
    for (const seed of seeds) {
      const f = paint({ prompt: 'an empty field at noon', seed });
      const planned =
        H / 2 + planScene({ seed, prompt: 'an empty field at noon' }, { width: W, height: H }).stage.horizon;
      expect(Math.abs(horizonOf(f) - planned)).toBeLessThanOrEqual(1);
      expect(horizonOf(f)).toBeGreaterThan(0.4 * H);
      expect(horizonOf(f)).toBeLessThan(0.6 * H);
    }
  });
});

describe('named things', () => {
  it('draws a lighthouse at dusk as a tall narrow tower against the sky, lit at the top', () => {
    for (const seed of seeds) {
      const f = paint({ prompt: 'a lighthouse at dusk', seed });
      const horizon = horizonOf(f);
      // Against the sky, the only columns that stand out from their rows are the tower's.
      const sky = standouts(f, 0, horizon - 1, 60);
      const found = columnsOf(sky, 0.05 * H);
      expect(found).toHaveLength(1);
      const [tower] = found as [Column];
      console.log('lighthouse', seed, { horizon, ...tower });
      const [tall, wide] = [tower.bottom - tower.top + 1, tower.right - tower.left + 1];
      expect(tall).toBeGreaterThan(0.15 * H);
      expect(tall / wide).toBeGreaterThan(3);
      expect(tower.bottom).toBeGreaterThanOrEqual(horizon - 3);
      // Its brightest pixel is near the top: the lantern.
      expect(brightestRow(f, tower)).toBeLessThan(tower.top + 0.3 * tall);
    }
  });

  it('floats a boat on the river, with water beside it and banks beyond', () => {
    for (const seed of seeds) {
      const shot = { prompt: 'a paper boat on a river', seed };
      const f = paint(shot);
      const horizon = horizonOf(f);
      const boat = silhouette(shot, 'boat');
      console.log('boat', seed, { horizon, ...boat, pixels: undefined });
      expect(boat.area).toBeLessThan(0.02 * W * H);
      expect(boat.bottom).toBeGreaterThan(horizon + 0.1 * H);
      const waterline = boat.bottom - 1;
      const water = (x: number) => {
        const [, g, b] = rgbAt(f, x, waterline);
        return b > g;
      };
      expect(water(boat.left - 2)).toBe(true);
      expect(water(boat.right + 2)).toBe(true);
      expect(water(0)).toBe(false);
      expect(water(W - 1)).toBe(false);
    }
  });

  /** The first row, down a column, where the colour jumps: the top of whatever meets the sky. */
  const skyline = (f: Canvas, x: number) => {
    for (let y = 1; y < H; y += 1) {
      const [a, b] = [rgbAt(f, x, y - 1), rgbAt(f, x, y)];
      if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 12) return y;
    }
    return H;
  };

  const shapes: [prompt: string, noun: string, check: (b: Blob, horizon: number, without: Canvas) => void][] =
    [
      [
        // On a beach: with the lighthouse banned, the scene keeps its sea and sand.
        'a lighthouse on a beach at noon',
        'lighthouse',
        (b, horizon) => {
          expect(heightOf(b) / widthOf(b)).toBeGreaterThan(3);
          expect(b.top).toBeLessThan(horizon - 0.15 * H);
        },
      ],
      ['a house in a field', 'house', (b) => expect(widthOf(b) / heightOf(b)).toBeGreaterThan(0.8)],
      [
        'a castle on a hill',
        'castle',
        (b, _horizon, without) => {
          expect(widthOf(b) / heightOf(b)).toBeGreaterThan(1.1);
          expect(heightOf(b)).toBeGreaterThan(0.12 * H);
          // On the hills, not in the sky above them.
          expect(b.bottom).toBeGreaterThan(skyline(without, Math.round((b.left + b.right) / 2)));
        },
      ],
      ['a bridge over a river', 'bridge', (b) => expect(widthOf(b)).toBeGreaterThan(0.95 * W)],
      ['a tree in a field', 'tree', (b) => expect(heightOf(b)).toBeGreaterThan(0.12 * H)],
      ['a ship at sea', 'ship', (b) => expect(widthOf(b) / heightOf(b)).toBeGreaterThan(2)],
      ['a car on a road', 'car', (b) => expect(widthOf(b) / heightOf(b)).toBeGreaterThan(1.8)],
      ['a person walking in a park', 'person', (b) => expect(heightOf(b) / widthOf(b)).toBeGreaterThan(1.8)],
      ['a bird in the sky', 'bird', (b) => expect(widthOf(b) / heightOf(b)).toBeGreaterThan(1.3)],
      [
        'the sun over the hills',
        'sun',
        (b, horizon) => {
          expect(b.bottom).toBeLessThan(horizon);
          expect(widthOf(b) / heightOf(b)).toBeCloseTo(1, 0);
        },
      ],
      [
        'the moon over the sea at night',
        'moon',
        (b, horizon) => {
          expect(b.bottom).toBeLessThan(horizon);
          expect(widthOf(b) / heightOf(b)).toBeCloseTo(1, 0);
        },
      ],
      [
        'a river',
        'river',
        (b, horizon) => {
          expect(b.top).toBeGreaterThanOrEqual(horizon - 1);
          const across = (y: number) => b.pixels.filter((i) => Math.floor(i / W) === y).length;
          expect(across(H - 1)).toBeGreaterThan(3 * across(b.top + 2));
        },
      ],
    ];

  it.each(shapes)('%s: the %s has its shape, in its place', (prompt, noun, check) => {
    for (const seed of [1, 2]) {
      const without = paint({ prompt, seed, negativePrompt: noun });
      const horizon = horizonOf(without);
      const b = silhouette({ prompt, seed }, noun);
      console.log(prompt, seed, { horizon, ...b, pixels: undefined });
      check(b, horizon, without);
    }
  });

  it('shows the moon as a bright round disc in a dark sky', () => {
    for (const seed of seeds) {
      const f = paint({ prompt: 'the moon over the sea', seed });
      const horizon = horizonOf(f);
      expect(luma(meanColor(f, 0, horizon - 2))).toBeLessThan(50);
      const bright = blobs(standouts(f, 0, horizon - 2, 120));
      const [moon] = bright as [Blob];
      const r = Math.sqrt(moon.area / Math.PI);
      console.log('moon', seed, { r, ...moon, pixels: undefined });
      expect(r).toBeGreaterThan(0.035 * H);
      expect(r).toBeLessThan(0.07 * H);
      expect(widthOf(moon) / heightOf(moon)).toBeCloseTo(1, 0);
      expect(moon.area / (widthOf(moon) * heightOf(moon))).toBeGreaterThan(0.65);
      expect(bright.slice(1).every((b) => b.area < moon.area / 10)).toBe(true);
    }
  });
});

describe('nothing the prompt does not name', () => {
  it('puts no flower-coloured specks on the ground unless flowers are asked for', () => {
    const unasked = ['a lighthouse at dusk', 'a paper boat on a river', 'a quiet moment', 'a ship at sea'];
    for (const prompt of unasked) {
      for (const seed of [1, 2, 3, 4]) {
        for (const cfgScale of [0, 1]) {
          const f = paint({ prompt, seed, cfgScale });
          expect(flowerSpecks(f, horizonOf(f)), `${prompt} seed ${seed}`).toHaveLength(0);
        }
      }
    }
    for (const seed of [1, 2]) {
      const f = paint({ prompt: 'a meadow of flowers', seed });
      expect(flowerSpecks(f, horizonOf(f)).length).toBeGreaterThan(30);
    }
  });

  it('paints a prompt with no known word as a plain sky over plain land', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const cfgScale of [0, 1]) {
        const f = paint({ prompt: 'a quiet moment of thought', seed, cfgScale });
        // Every row is one colour: nothing stands anywhere.
        expect(blobs(standouts(f, 0, H, 2))).toHaveLength(0);
        const horizon = horizonOf(f);
        expect(luma(meanColor(f, 0, horizon - 1))).not.toBeCloseTo(luma(meanColor(f, horizon, H)), 0);
      }
    }
  });

  it('has the same things for every seed, placed where the seed likes', () => {
    const count = (prompt: string, seed: number) => {
      const f = paint({ prompt, seed });
      return columnsOf(standouts(f, 0, horizonOf(f) - 1, 60), 0.05 * H);
    };
    const lefts = seeds.map((seed) => {
      const found = count('three lighthouses at dusk', seed);
      expect(found).toHaveLength(3);
      return found.map((b) => b.left).sort((a, b) => a - b);
    });
    expect(new Set(lefts.map((l) => l.join())).size).toBeGreaterThan(1);
    for (const prompt of [
      'two boats on a lake with birds',
      'people walking in a city',
      'a car on a highway at night',
    ]) {
      const kinds = (seed: number, cfgScale: number) =>
        planScene({ prompt, seed, cfgScale }, { width: W, height: H })
          .subjects.map((s) => s.subject)
          .sort();
      for (const seed of seeds)
        for (const cfgScale of [0, 0.5, 1]) expect(kinds(seed, cfgScale)).toEqual(kinds(1, 1));
    }
    expect(readPrompt('two boats on a lake with birds').counts).toEqual({ boat: 2, birds: 7 });
    // A lighthouse stands in the sea, on its rock, unless the words name another ground.
    expect(readPrompt('a lighthouse').forms).toEqual(['waves', 'lighthouse']);
    expect(readPrompt('a lighthouse in a field').forms).toEqual(['land', 'lighthouse']);
    expect(readPrompt('a paper boat on a river').forms).toEqual(['river', 'boat']);
  });
});

describe('things that move', () => {
  it('walks a person and drives a car across the still frame', () => {
    for (const [prompt, noun, least] of [
      ['a person walking in a park', 'person', 0.01],
      ['a car on a road', 'car', 0.1],
    ] as const) {
      const at = (frame: number) => silhouette({ prompt, seed: 2, frame }, noun);
      const [start, later] = [at(0), at(24)];
      const centre = (b: Blob) => (b.left + b.right) / 2;
      console.log(prompt, centre(start), centre(later));
      // One second on: moved along the ground by about its pace, not up or down.
      expect(Math.abs(centre(later) - centre(start))).toBeGreaterThan(least * H);
      expect(Math.abs(later.bottom - start.bottom)).toBeLessThanOrEqual(1);
    }
  });
});
