/**
 * The video engine's parts: reading prompts, planning scenes, camera paths, the compositor and
 * image anchoring, the motion estimator (on synthetic frames moved by known amounts), colours,
 * the badge, and the checks at the door.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Canvas } from '../../src/engines/canvas.js';
import { seeded } from '../../src/engines/random.js';
import { layAnchor, relativeTo } from '../../src/engines/video/anchor.js';
import { beatsOf, cameraPath, PARALLAX } from '../../src/engines/video/camera.js';
import { dominantColors, gradientMap, leanPalette, recolor } from '../../src/engines/video/colors.js';
import { composite, dissolve } from '../../src/engines/video/composite.js';
import { encodeFrames } from '../../src/engines/video/encode.js';
import { disc, fillColumns, fillRect, mixRgb, over, packed, shade } from '../../src/engines/video/draw.js';
import { placeElements } from '../../src/engines/video/elements.js';
import { paintLand } from '../../src/engines/video/land.js';
import { fbm1, noise2 } from '../../src/engines/paint/index.js';
import { featureOf, restyler } from '../../src/engines/video/reference.js';
import { paintSky } from '../../src/engines/video/sky.js';
import { cellRandom, formRandom, stageOf } from '../../src/engines/video/stage.js';
import { lastLine, run, withTemp } from '../../src/engines/video/tools.js';
import { extentOf, layerFor } from '../../src/engines/video/layer.js';
import { estimateMotion } from '../../src/engines/video/motion-estimate.js';
import { coverFrame, resampleScaled } from '../../src/engines/video/resample.js';
import { paintScene, planScene } from '../../src/engines/video/scene.js';
import { decodeFrames, renderVideo, VideoToolError, type Motion } from '../../src/engines/video/index.js';
import { drawSwarms, swarmsFor } from '../../src/engines/video/particles.js';
import { badgeBox, drawBadge } from '../../src/engines/video/watermark.js';
import { readPrompt } from '../../src/engines/video/words.js';

const still: Motion = { x: 0, y: 0, zoom: 1, roll: 0 };
const frame = { width: 320, height: 180 };
const small = { width: 160, height: 90 };

/** A smooth, richly textured test picture: a sum of sines evaluated at any real point. */
const texture = (x: number, y: number) =>
  128 +
  40 * Math.sin(x / 7 + Math.sin(y / 11)) +
  40 * Math.cos(y / 5 - x / 13) +
  30 * Math.sin((x + 2 * y) / 17);

/** The texture seen through a similarity about the frame centre (content scale s, rotation r, shift). */
function view(width: number, height: number, s = 1, r = 0, dx = 0, dy = 0): Canvas {
  const data = new Uint8Array(width * height * 4);
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      // Invert the content motion: p' = s R p + t, so p = R⁻¹ (p' − t) / s.
      const px = x - width / 2 - dx;
      const py = y - height / 2 - dy;
      const v = texture((cos * px + sin * py) / s, (-sin * px + cos * py) / s);
      data.set([v, v * 0.9, 255 - v, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

describe('reading prompts', () => {
  it('finds forms, weather, night and pace in the words', () => {
    expect(readPrompt('waves on the ocean').forms).toEqual(['waves']);
    expect(readPrompt('a city street').forms).toEqual(['blocks']);
    expect(readPrompt('forest').forms).toEqual(['trunks']);
    expect(readPrompt('deep space').forms).toEqual(['planet']);
    expect(readPrompt('deep space').time).toBe('night');
    expect(readPrompt('campfire').weather).toContain('embers');
    expect(readPrompt('city in the rain').weather).toEqual(['rain']);
    expect(readPrompt('a calm slow lake').tempo).toBeLessThan(1);
    expect(readPrompt('fast energetic chase').tempo).toBeGreaterThan(1);
    expect(readPrompt('a lake').tempo).toBe(1);
  });

  it('takes out what the negative prompt names, and implies hues only when none are named', () => {
    const reading = readPrompt('forest by the ocean in the snow', 'trees, snow');
    expect(reading.forms).toEqual(['waves']);
    expect(reading.bannedForms).toEqual(['trunks', 'tree']);
    expect(reading.weather).not.toContain('snow');
    expect(readPrompt('forest').impliedHues).toContain('green');
    expect(readPrompt('red forest').impliedHues).toBe('');
  });
});

describe('planning scenes', () => {
  const hueOf = ([r, g, b]: number[]) => {
    const [max, min] = [Math.max(r!, g!, b!), Math.min(r!, g!, b!)];
    if (max === min) return 0;
    const h =
      max === r
        ? (g! - b!) / (max - min)
        : max === g
          ? 2 + (b! - r!) / (max - min)
          : 4 + (r! - g!) / (max - min);
    return (h * 60 + 360) % 360;
  };

  it('draws what the words say and nothing else, whatever the seed and cfg', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      for (const cfgScale of [0, 0.5, 1]) {
        const plan = planScene({ seed, prompt: 'ocean city', cfgScale }, frame);
        expect(plan.forms).toEqual(['waves', 'blocks']);
        expect(plan.subjects).toEqual([]);
        expect(plan.weather).toEqual([]);
        expect(plan.time).toBe('day');
      }
    }
  });

  it('keeps hues the negative prompt names out of the palette', () => {
    for (let seed = 0; seed < 10; seed += 1) {
      const plan = planScene({ seed, prompt: 'fire', negativePrompt: 'red orange', cfgScale: 1 }, frame);
      for (const color of plan.palette.colors) {
        const hue = hueOf(color);
        expect(Math.min(Math.abs(hue - 0), Math.abs(hue - 360), Math.abs(hue - 30))).toBeGreaterThan(20);
      }
      expect(plan.forms).toContain('flames');
    }
  });

  it('moves calm prompts slower than energetic ones', () => {
    const speed = (prompt: string) => planScene({ seed: 1, prompt, cfgScale: 1 }, frame).speed;
    expect(speed('calm gentle sea')).toBeCloseTo(0.5, 5);
    expect(speed('fast energetic sea')).toBeCloseTo(1.8, 5);
    expect(planScene({ seed: 1, prompt: 'calm sea' }, frame).speed).toBeLessThan(
      planScene({ seed: 1, prompt: 'fast sea' }, frame).speed,
    );
  });

  it('paints an opaque far layer and a near layer with its forms, the same for the same seed', () => {
    const plan = planScene({ seed: 3, prompt: 'city by the sea', cfgScale: 1 }, small);
    const paint = () => {
      const near = layerFor([still], 160, 90, 1, 10);
      const far = layerFor([still], 160, 90, 0.5, 10);
      paintScene(plan, near, far);
      return { near, far };
    };
    const { near, far } = paint();
    expect(far.data.every((p) => p >>> 24 === 255)).toBe(true);
    const covered = near.data.filter((p) => p >>> 24 === 255).length / near.data.length;
    expect(covered).toBeGreaterThan(0.3);
    expect(covered).toBeLessThan(0.95);
    expect(paint().near.data).toEqual(near.data);
  });
});

describe('camera paths', () => {
  const path = (move: Parameters<typeof beatsOf>[0], frames = 121) =>
    cameraPath(beatsOf(move, seeded(1)), frames, 24, 1, seeded(2));

  it('starts at rest and moves the way the axis says', () => {
    const right = path({ kind: 'simple', config: { pan: 1 } });
    expect(right.near[0]).toEqual(still);
    expect(right.near.at(-1)!.x).toBeCloseTo(0.4, 5);
    const up = path({ kind: 'simple', config: { vertical: 1 } });
    expect(up.near.at(-1)!.y).toBeLessThan(-0.3);
    expect(path({ kind: 'simple', config: { zoom: 1 } }).near.at(-1)!.zoom).toBeCloseTo(Math.exp(0.5), 5);
    expect(path({ kind: 'simple', config: { roll: -1 } }).near.at(-1)!.roll).toBeCloseTo(-0.5, 5);
    expect(
      path({ kind: 'fixed' }).near.every((m) => m.x === 0 && m.y === 0 && m.zoom === 1 && m.roll === 0),
    ).toBe(true);
  });

  it('moves the far layer less in a truck or push than in a pan or zoom', () => {
    const truck = path({ kind: 'simple', config: { horizontal: 1 } });
    expect(truck.far.at(-1)!.x / truck.near.at(-1)!.x).toBeCloseTo(PARALLAX, 5);
    const pan = path({ kind: 'simple', config: { pan: 1 } });
    expect(pan.far.at(-1)!.x).toBeCloseTo(pan.near.at(-1)!.x, 9);
    const push = path({ kind: 'preset', name: 'forward_up' });
    expect(Math.log(push.far.at(-1)!.zoom) / Math.log(push.near.at(-1)!.zoom)).toBeCloseTo(PARALLAX, 5);
    expect(push.near.at(-1)!.y).toBeLessThan(0);
    expect(path({ kind: 'preset', name: 'down_back' }).near.at(-1)!.zoom).toBeLessThan(1);
    expect(path({ kind: 'preset', name: 'left_turn_forward' }).near.at(-1)!.x).toBeLessThan(0);
  });

  it('gives each director command its share of the clip, in order', () => {
    const p = path({ kind: 'sequence', commands: ['Pan left', 'Zoom in', 'Shake', 'Static shot'] }, 97);
    // Frames 0-24 pan, 24-48 zoom, 48-72 shake, 72-96 nothing.
    expect(p.near[24]!.x).toBeCloseTo(-0.08, 5);
    expect(p.near[24]!.zoom).toBeCloseTo(1, 5);
    expect(p.near[48]!.x).toBeCloseTo(-0.08, 5);
    expect(p.near[48]!.zoom).toBeCloseTo(Math.exp(0.1), 5);
    expect(Math.abs(p.near[60]!.x + 0.08)).toBeGreaterThan(1e-4);
    expect(p.near[96]).toEqual(p.near[72]);
  });

  it('drifts gently by default, and scales with speed', () => {
    const drift = cameraPath(beatsOf(undefined, seeded(5)), 121, 24, 1, seeded(6));
    const end = drift.near.at(-1)!;
    expect(Math.hypot(end.x, end.y)).toBeGreaterThan(0.05);
    expect(Math.hypot(end.x, end.y)).toBeLessThan(0.2);
    const fast = cameraPath(beatsOf(undefined, seeded(5)), 121, 24, 2, seeded(6)).near.at(-1)!;
    expect(fast.x).toBeCloseTo(2 * end.x, 9);
  });
});

describe('compositing and anchors', () => {
  it('copies an image exactly through the unmoved camera and reaches an end image exactly', () => {
    const [w, h] = [64, 36];
    const red = 0xff0000ff | 0;
    const image = view(w, h);
    const away: Motion = { x: 1, y: 0, zoom: 1, roll: 0 };
    const near = layerFor([still, away], w, h, 1, 4);
    const far = layerFor([still, away], w, h, 0.5, 4);
    far.data.fill(red);
    layAnchor(near, coverFrame(image, w, h), w, h, 8);
    const frame = new Int32Array(w * h);
    composite(frame, w, h, near, still, far, still);
    expect(Buffer.from(new Uint8Array(frame.buffer)).equals(Buffer.from(image.data))).toBe(true);
    // A frame width to the right, the far layer shows beyond the image's feathered mirror.
    composite(frame, w, h, near, away, far, away);
    expect(frame.filter((p) => p === red).length / frame.length).toBeGreaterThan(0.8);
    // An end image is laid where the last of the motions sees it unmoved.
    const motions: Motion[] = [still, { x: 0.2, y: -0.1, zoom: 1.3, roll: 0.2 }];
    const seen = relativeTo(motions, w, h);
    expect(seen[1]).toEqual(still);
    expect(seen[0]!.zoom).toBeCloseTo(1 / 1.3, 9);
    const ending = layerFor(seen, w, h, 1, 2);
    const other = view(w, h, 1.5, 0.3);
    layAnchor(ending, coverFrame(other, w, h), w, h, Infinity);
    expect(ending.data.every((p) => p >>> 24 === 255)).toBe(true);
    dissolve(frame, w, h, ending, seen[1]!, 1);
    expect(Buffer.from(new Uint8Array(frame.buffer)).equals(Buffer.from(other.data))).toBe(true);
    dissolve(frame, w, h, ending, seen[0]!, 0.5);
    expect(Buffer.from(new Uint8Array(frame.buffer)).equals(Buffer.from(other.data))).toBe(false);
  });

  it('takes the short ways of an unrolled camera to the same pixels as the general way', () => {
    const [w, h] = [160, 90];
    const motions: Motion[] = [
      still,
      { x: 0.21, y: -0.07, zoom: 1.43, roll: 0 },
      { x: -0.3, y: 0.1, zoom: 0.61, roll: 0 },
    ];
    for (const prompt of ['a lighthouse at dusk', 'a fox in a snowy forest', 'a city street at night']) {
      const plan = planScene({ seed: 4, prompt }, { width: w, height: h });
      const near = layerFor(motions, w, h, 1, 9);
      const far = layerFor(motions, w, h, 0.5, 9);
      paintScene(plan, near, far);
      for (const m of motions) {
        const [short, general] = [new Int32Array(w * h), new Int32Array(w * h)];
        composite(short, w, h, near, m, far, m);
        // A hair of roll takes the general way, pixel by pixel.
        const rolled = { ...m, roll: 1e-12 };
        composite(general, w, h, near, rolled, far, rolled);
        // The general way steps along a row by adding, and the hair of roll moves a point that
        // lies on a pixel to a 127/128 blend of it and its neighbours: two levels an axis at most.
        let total = 0;
        let worst = 0;
        for (let i = 0; i < short.length; i += 1)
          for (const shift of [0, 8, 16, 24]) {
            const diff = Math.abs(((short[i]! >>> shift) & 255) - ((general[i]! >>> shift) & 255));
            total += diff;
            worst = Math.max(worst, diff);
          }
        expect(total / (4 * short.length)).toBeLessThan(0.5);
        expect(worst).toBeLessThanOrEqual(4);
      }
    }
  });

  it('draws weather that moves within the scene while the camera stands still', () => {
    const plan = planScene({ seed: 2, prompt: 'snow falling on a campfire', cfgScale: 1 }, small);
    const near = layerFor([still], 160, 90, 1, 10);
    const swarms = swarmsFor(plan.weather, plan.forms, plan.stage, extentOf(near), 1);
    expect(swarms.length).toBe(3);
    const frameAt = (t: number) => {
      const frame = new Int32Array(160 * 90).fill(0xff000000 | 0);
      drawSwarms(frame, 160, 90, swarms, t, still, 1);
      return frame;
    };
    const [a, b] = [frameAt(0), frameAt(0.5)];
    const lit = (f: Int32Array) => f.filter((p) => p !== (0xff000000 | 0)).length;
    expect(lit(a)).toBeGreaterThan(50);
    expect(a).not.toEqual(b);
    const hidden = new Int32Array(160 * 90).fill(0xff000000 | 0);
    drawSwarms(hidden, 160, 90, swarms, 0, still, 0);
    expect(lit(hidden)).toBe(0);
  });
});

describe('the motion estimator', () => {
  const [w, h] = [320, 180];
  const base = view(w, h);

  it('measures a known shift, scale and rotation', () => {
    const shift = estimateMotion(base, view(w, h, 1, 0, 6.5, -3.25));
    expect(shift.dx * w).toBeCloseTo(6.5, 0);
    expect(shift.dy * h).toBeCloseTo(-3.25, 0);
    expect(Math.abs(shift.scale - 1)).toBeLessThan(0.002);
    const zoom = estimateMotion(base, view(w, h, 1.03));
    expect(zoom.scale).toBeCloseTo(1.03, 2);
    expect(Math.abs(zoom.dx)).toBeLessThan(0.002);
    const turn = estimateMotion(base, view(w, h, 1, 0.02));
    expect(turn.rotation).toBeCloseTo(0.02, 2);
    const big = estimateMotion(base, view(w, h, 1, 0, -30, 0));
    expect(big.dx * w).toBeCloseTo(-30, 0);
    const none = estimateMotion(base, base);
    expect(
      Math.abs(none.dx) + Math.abs(none.dy) + Math.abs(none.scale - 1) + Math.abs(none.rotation),
    ).toBeLessThan(0.002);
  });
});

describe('colours', () => {
  it('finds dominant colours light to dark, and leans a palette toward them', () => {
    const image: Canvas = {
      width: 3,
      height: 1,
      data: new Uint8Array([250, 200, 200, 255, 10, 10, 90, 255, 120, 240, 120, 255]),
    };
    const [light, middle, dark] = dominantColors([image]);
    expect(light).toEqual([250, 200, 200]);
    expect(middle).toEqual([120, 240, 120]);
    expect(dark).toEqual([10, 10, 90]);
    const plan = planScene({ seed: 1, prompt: 'sea' }, small);
    const leaned = leanPalette(plan.palette, [light!, middle!, dark!], 1);
    expect(leaned.colors[0]).toEqual(light);
  });

  it('maps luminance through the palette in order, keeping part of the original', () => {
    const map = gradientMap(planScene({ seed: 1, prompt: 'neon' }, small).palette);
    const lumaOf = (p: number) =>
      0.299 * (p & 0xff) + 0.587 * ((p >>> 8) & 0xff) + 0.114 * ((p >>> 16) & 0xff);
    expect(lumaOf(map[255]!)).toBeGreaterThan(lumaOf(map[128]!));
    expect(lumaOf(map[128]!)).toBeGreaterThan(lumaOf(map[0]!));
    const pixels = Int32Array.from([0xff000000 | 0, 0xffffffff | 0]);
    recolor(pixels, map, 0);
    expect([pixels[0], pixels[1]]).toEqual([map[0], map[255]]);
  });
});

describe('the badge', () => {
  it('is white letters on a dark patch inside its box, and nothing outside', () => {
    const [w, h] = [320, 180];
    const frame = new Int32Array(w * h).fill(0xff808080 | 0);
    drawBadge(frame, w, h);
    const [x0, y0, x1, y1] = badgeBox(w, h);
    let white = 0;
    let dark = 0;
    let outside = 0;
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const p = frame[y * w + x]!;
        const inside = x >= x0 && x < x1 && y >= y0 && y < y1;
        if (!inside && p !== (0xff808080 | 0)) outside += 1;
        if (inside && p === (0xffffffff | 0)) white += 1;
        if (inside && (p & 0xff) < 60) dark += 1;
      }
    }
    expect(outside).toBe(0);
    expect(white).toBeGreaterThan(40);
    expect(dark).toBeGreaterThan(white);
  });
});

describe('at the door', () => {
  const spec = {
    seed: 1,
    prompt: 'sea',
    width: 160,
    height: 90,
    fps: 30,
    frames: 29,
    quality: 'std' as const,
  };

  it('refuses odd sizes and empty clips, and stops when aborted', async () => {
    await expect(renderVideo({ ...spec, width: 161 })).rejects.toThrow(RangeError);
    await expect(renderVideo({ ...spec, frames: 0 })).rejects.toThrow(RangeError);
    await expect(renderVideo(spec, AbortSignal.abort())).rejects.toThrow();
  });

  it('keeps other frame rates and counts exactly', async () => {
    const video = await renderVideo(spec);
    const decoded = await decodeFrames(video.mp4, 100);
    expect(decoded.fps).toBe(30);
    expect(decoded.frames).toHaveLength(29);
    expect(decoded.duration).toBeCloseTo(29 / 30, 1);
  });

  it('encodes whatever frames it is handed, and reads MOV files back', async () => {
    const mp4 = await encodeFrames(
      { width: 64, height: 32, fps: 10, frames: 5, quality: 'std' },
      (i, frame) => frame.fill(0xff000000 | (i * 50)),
    );
    const back = await decodeFrames(mp4, 10);
    expect(back.frames.map((f) => f.data[0]!)).toEqual(
      [0, 50, 100, 150, 200].map((v) => expect.closeTo(v, -1)),
    );
    const mov = await new Promise<Buffer>((resolve, reject) => {
      const args = [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=96x54:rate=25:duration=1',
        '-c:v',
        'mpeg4',
        '-f',
        'mov',
        '-movflags',
        'frag_keyframe+empty_moov',
        'pipe:1',
      ];
      const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'inherit'] });
      const out: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.on('close', (code) =>
        code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg ${code}`)),
      );
    });
    const decoded = await decodeFrames(mov, 10, 48);
    expect(decoded).toMatchObject({ fps: 25, width: 48, height: 28 });
    expect(decoded.frames).toHaveLength(10);
    await expect(decodeFrames(Buffer.from('not a video'), 10)).rejects.toThrow(VideoToolError);
  });
});

describe('painting', () => {
  it('lays colours over layers premultiplied, keeping opaque exactly opaque', () => {
    const data = Int32Array.from([packed([10, 20, 30]), 0]);
    for (let a = 0; a <= 1; a += 0.05) over(data, 0, packed([200, 100, 50], a));
    expect(data[0]! >>> 24).toBe(255);
    over(data, 1, packed([200, 100, 0], 0.5));
    expect([data[1]! & 0xff, (data[1]! >>> 8) & 0xff, data[1]! >>> 24]).toEqual([100, 50, 128]);
    expect(mixRgb([0, 100, 200], [100, 100, 0], 0.25)).toEqual([25, 100, 150]);
    expect(shade([100, 200, 250], 1.2)).toEqual([120, 240, 255]);
  });

  it('fills rectangles, columns and discs where they are asked for, in world units', () => {
    const layer = layerFor([still], 40, 20, 2, 0);
    const at = (x: number, y: number) =>
      layer.data[Math.round(layer.oy + y * 2) * layer.width + Math.round(layer.ox + x * 2)]!;
    fillRect(layer, -10, -5, 0, 0, packed([255, 0, 0]));
    expect(at(-5, -2) & 0xff).toBe(255);
    expect(at(5, 2)).toBe(0);
    fillColumns(
      layer,
      (x) => x / 4,
      () => 9,
      () => packed([0, 255, 0]),
    );
    expect((at(8, 5) >>> 8) & 0xff).toBe(255);
    expect(at(8, 1)).toBe(0);
    disc(layer, 12, -6, 3, [0, 0, 255], 1);
    const covered = layer.data.filter((p) => (p >>> 16) & 0xff).length / 4;
    expect(covered).toBeGreaterThan(Math.PI * 9 * 0.8);
    expect(covered).toBeLessThan(Math.PI * 9 * 1.3);
  });

  it('makes smooth noise in [0, 1], the same for the same seed', () => {
    const line = fbm1(seeded(1), 4);
    const plane = noise2(seeded(2));
    for (let x = -50; x < 50; x += 0.37) {
      expect(line(x)).toBeGreaterThanOrEqual(0);
      expect(line(x)).toBeLessThanOrEqual(1);
      expect(Math.abs(line(x + 0.01) - line(x))).toBeLessThan(0.05);
      expect(Math.abs(plane(x, x / 3 + 0.01) - plane(x, x / 3))).toBeLessThan(0.05);
    }
    expect(fbm1(seeded(1), 4)(3.3)).toBe(line(3.3));
  });

  it('paints each form where it belongs: water below the horizon, sky everywhere', () => {
    const plan = planScene({ seed: 8, prompt: 'sea', cfgScale: 1 }, small);
    const stage = stageOf({ palette: plan.palette, time: 'day', tint: 0.2, width: 160, height: 90, seed: 8 });
    const near = layerFor([still], 160, 90, 1, 10);
    paintLand(near, stage, ['waves']);
    const row = (y: number) =>
      near.data.subarray(Math.round(near.oy + y) * near.width, Math.round(near.oy + y + 1) * near.width);
    expect(row(stage.horizon - 5).every((p) => p === 0)).toBe(true);
    expect(row(stage.horizon + 5).every((p) => p >>> 24 === 255)).toBe(true);
    const far = layerFor([still], 160, 90, 0.5, 10);
    paintSky(far, { ...stage, night: true }, ['clouds', 'planet']);
    expect(far.data.every((p) => p >>> 24 === 255)).toBe(true);
    expect(cellRandom(stage, 'trunks', 3)()).toBe(cellRandom(stage, 'trunks', 3)());
    expect(cellRandom(stage, 'trunks', 3)()).not.toBe(cellRandom(stage, 'trunks', 4)());
    expect(formRandom(stage, 'waves')()).not.toBe(formRandom(stage, 'ridges')());
  });

  it('sets elements into the near layer, with soft edges when they have no transparency', () => {
    const layer = layerFor([still], 200, 100, 1, 0);
    const square: Canvas = { width: 20, height: 20, data: new Uint8Array(20 * 20 * 4).fill(255) };
    placeElements(layer, [square], 200, 100);
    const centre = layer.data[Math.round(layer.oy + 12) * layer.width + layer.ox]!;
    expect(centre).toBe(-1);
    const corner = layer.data[Math.round(layer.oy + 12 - 18) * layer.width + layer.ox - 18]!;
    expect(corner >>> 24).toBeLessThan(128);
  });

  it('shrinks images by averaging what each pixel covers', () => {
    const image: Canvas = {
      width: 4,
      height: 2,
      data: new Uint8Array([
        0, 0, 0, 255, 100, 0, 0, 255, 200, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 100, 0, 0, 255, 200, 0, 0,
        255, 0, 0, 0, 255,
      ]),
    };
    const half = resampleScaled(image, 2, 1, 0.5);
    expect([half[0]! & 0xff, half[1]! & 0xff]).toEqual([50, 100]);
  });
});

describe('references', () => {
  const frames = Array.from({ length: 20 }, (_, i) => view(160, 90, 1, 0, 2 * i, 0));

  it('plays a base video at the output rate, back and forth when it runs out', () => {
    const palette = planScene({ seed: 1, prompt: 'neon' }, small).palette;
    const paint = restyler({ frames, fps: 10, use: 'base' }, palette, 160, 90, 20);
    const frame = new Int32Array(160 * 90);
    const seen = (i: number) => {
      paint(i, frame);
      return Int32Array.from(frame);
    };
    const expected = (k: number) => {
      const p = coverFrame(frames[k]!, 160, 90);
      recolor(p, gradientMap(palette), 0.25);
      return p;
    };
    expect(seen(0)).toEqual(expected(0));
    expect(seen(2)).toEqual(expected(1));
    expect(seen(40)).toEqual(expected(18));
  });

  it('learns the colours and the camera motion of a feature video', () => {
    const feature = featureOf({ frames, fps: 10, use: 'feature' });
    // Content moving right 2 px a frame at 10 fps: the camera turns left 20 px (1/8 frame) a second.
    expect(feature.beat.velocity.panX).toBeCloseTo(-20 / 160, 2);
    expect(Math.abs(feature.beat.velocity.panY!)).toBeLessThan(0.01);
    expect(feature.colors).toHaveLength(3);
    const [light, , dark] = feature.colors;
    expect(light![0] + light![1] + light![2]).toBeGreaterThan(dark![0] + dark![1] + dark![2]);
  });
});

describe('tools', () => {
  it('runs ffprobe, reports the last line of errors, and cleans up its folder', async () => {
    expect((await run('ffprobe', ['-version'])).toString()).toContain('ffprobe');
    await expect(run('ffmpeg', ['-i', '/nonexistent/file'])).rejects.toThrow(VideoToolError);
    expect(lastLine('first\nsecond\n  last  \n')).toBe('last');
    let kept = '';
    await withTemp(async (dir) => {
      kept = dir;
      expect(existsSync(dir)).toBe(true);
    });
    expect(existsSync(kept)).toBe(false);
  });
});
