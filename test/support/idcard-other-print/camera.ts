/**
 * How the other card reaches the reader: laid on a scanner, or photographed by a phone on a
 * table (turned, seen at a slant, lit unevenly, with a colour cast, vignetting and sometimes a
 * glare spot), then softened by the phone's processing, given sensor noise and compressed as
 * JPEG by Skia's encoder. The perspective is an inverse homography of its own.
 */
import { createCanvas, type Canvas as SkiaCanvas } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';

export type Capture = 'scan' | 'phone';

export interface Shot {
  image: Buffer;
  width: number;
  height: number;
  /** The card's corners in the image, clockwise from top left. */
  corners: [number, number][];
  glare: boolean;
}

const between = (random: Random, low: number, high: number) => low + (high - low) * random();

/** The 3×3 homography (row-major, h33 = 1) taking the unit square's corners to `to`. */
function squareTo(to: readonly [number, number][]): number[] {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = to as [
    [number, number],
    [number, number],
    [number, number],
    [number, number],
  ];
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const h = (dx1 * sy - sx * dy1) / den;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

function inverse(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [
    A / det,
    -(b * i - c * h) / det,
    (b * f - c * e) / det,
    B / det,
    (a * i - c * g) / det,
    -(a * f - c * d) / det,
    C / det,
    -(a * h - b * g) / det,
    (a * e - b * d) / det,
  ];
}

/** The card drawn into `scene` inside `corners`, sampled bilinearly through the inverse homography. */
function project(
  card: SkiaCanvas,
  scene: Uint8ClampedArray,
  width: number,
  height: number,
  corners: [number, number][],
): void {
  const source = card.getContext('2d').getImageData(0, 0, card.width, card.height).data;
  const back = inverse(squareTo(corners));
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  for (
    let y = Math.max(0, Math.floor(Math.min(...ys)));
    y < Math.min(height, Math.ceil(Math.max(...ys)));
    y++
  )
    for (
      let x = Math.max(0, Math.floor(Math.min(...xs)));
      x < Math.min(width, Math.ceil(Math.max(...xs)));
      x++
    ) {
      const w = back[6]! * x + back[7]! * y + back[8]!;
      const u = (back[0]! * x + back[1]! * y + back[2]!) / w;
      const v = (back[3]! * x + back[4]! * y + back[5]!) / w;
      if (u < 0 || u > 1 || v < 0 || v > 1) continue;
      const fx = Math.min(card.width - 1.001, Math.max(0, u * card.width - 0.5));
      const fy = Math.min(card.height - 1.001, Math.max(0, v * card.height - 0.5));
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const ax = fx - ix;
      const ay = fy - iy;
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) {
        const p = (iy * card.width + ix) * 4 + k;
        const top = source[p]! * (1 - ax) + source[p + 4]! * ax;
        const bottom = source[p + card.width * 4]! * (1 - ax) + source[p + card.width * 4 + 4]! * ax;
        scene[o + k] = top * (1 - ay) + bottom * ay;
      }
    }
}

function table(
  ctx: ReturnType<SkiaCanvas['getContext']>,
  width: number,
  height: number,
  random: Random,
): void {
  const base = [between(random, 60, 200), between(random, 50, 180), between(random, 40, 160)].map(Math.round);
  ctx.fillStyle = `rgb(${base.join(',')})`;
  ctx.fillRect(0, 0, width, height);
  // Wood grain or a cloth's weave.
  const pitch = between(random, 6, 30);
  ctx.strokeStyle = `rgba(0,0,0,${between(random, 0.04, 0.12)})`;
  ctx.lineWidth = pitch / 3;
  const slant = between(random, -0.3, 0.3);
  for (let y = -height; y < 2 * height; y += pitch) {
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.bezierCurveTo(
      width / 3,
      y + between(random, -20, 20),
      (2 * width) / 3,
      y + between(random, -20, 20),
      width,
      y + slant * width,
    );
    ctx.stroke();
  }
}

export function capture(card: SkiaCanvas, how: Capture, random: Random): Shot {
  const aspect = card.height / card.width;
  let width: number;
  let height: number;
  let corners: [number, number][];
  if (how === 'scan') {
    const margin = Math.round(between(random, 0, 24));
    width = card.width + 2 * margin;
    height = card.height + 2 * margin;
    const turn = between(random, -0.02, 0.02);
    const [cx, cy] = [width / 2, height / 2];
    corners = [
      [-card.width / 2, -card.height / 2],
      [card.width / 2, -card.height / 2],
      [card.width / 2, card.height / 2],
      [-card.width / 2, card.height / 2],
    ].map(([x, y]) => [
      cx + x! * Math.cos(turn) - y! * Math.sin(turn),
      cy + x! * Math.sin(turn) + y! * Math.cos(turn),
    ]);
  } else {
    width = Math.round(between(random, 1280, 1800));
    height = Math.round(width * 0.75);
    const w = width * between(random, 0.55, 0.82);
    const h = w * aspect;
    const turn = between(random, -0.2, 0.2);
    const [cx, cy] = [
      width / 2 + between(random, -0.06, 0.06) * width,
      height / 2 + between(random, -0.06, 0.06) * height,
    ];
    // A camera tilt: one side of the card nearer, so longer, than the other.
    const tiltX = between(random, -0.06, 0.06);
    const tiltY = between(random, -0.06, 0.06);
    corners = [
      [(-w / 2) * (1 - tiltY), (-h / 2) * (1 - tiltX)],
      [(w / 2) * (1 - tiltY), (-h / 2) * (1 + tiltX)],
      [(w / 2) * (1 + tiltY), (h / 2) * (1 + tiltX)],
      [(-w / 2) * (1 + tiltY), (h / 2) * (1 - tiltX)],
    ].map(([x, y]) => [
      cx + x! * Math.cos(turn) - y! * Math.sin(turn),
      cy + x! * Math.sin(turn) + y! * Math.cos(turn),
    ]);
  }
  const scene = createCanvas(width, height);
  const ctx = scene.getContext('2d');
  if (how === 'scan') {
    ctx.fillStyle = 'rgb(250,250,250)';
    ctx.fillRect(0, 0, width, height);
  } else table(ctx, width, height, random);
  const pixels = ctx.getImageData(0, 0, width, height);
  project(card, pixels.data, width, height, corners);

  let glare = false;
  if (how === 'phone') {
    // Light: a brightness slope across the picture, a colour cast, darker corners.
    const slope = [between(random, -0.2, 0.2), between(random, -0.2, 0.2)];
    const level = between(random, 0.85, 1.08);
    const cast = [between(random, 0.93, 1.05), between(random, 0.96, 1.03), between(random, 0.9, 1.06)];
    const vignette = between(random, 0.1, 0.35);
    glare = random() < 0.25;
    const spot = {
      x: corners[0]![0] + between(random, 0.1, 0.9) * (corners[1]![0] - corners[0]![0]),
      y: corners[0]![1] + between(random, 0.1, 0.6) * (corners[3]![1] - corners[0]![1]),
      r: width * between(random, 0.03, 0.07),
      strength: between(random, 0.3, 0.6),
    };
    const d = pixels.data;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const u = x / width - 0.5;
        const v = y / height - 0.5;
        const light = level * (1 + slope[0]! * u + slope[1]! * v) * (1 - vignette * (u * u + v * v) * 2);
        const g = glare
          ? spot.strength * Math.exp(-((x - spot.x) ** 2 + (y - spot.y) ** 2) / (2 * spot.r * spot.r))
          : 0;
        const o = (y * width + x) * 4;
        for (let k = 0; k < 3; k++) d[o + k] = d[o + k]! * light * cast[k]! * (1 - g) + 255 * g;
      }
  }
  ctx.putImageData(pixels, 0, 0);

  // The phone's processing: a resolution below the sensor's, sharpened back up a little.
  let out = scene;
  if (how === 'phone') {
    const factor = between(random, 0.55, 0.95);
    const small = createCanvas(Math.round(width * factor), Math.round(height * factor));
    small.getContext('2d').drawImage(scene, 0, 0, small.width, small.height);
    out = createCanvas(width, height);
    out.getContext('2d').drawImage(small, 0, 0, width, height);
    const noisy = out.getContext('2d').getImageData(0, 0, width, height);
    const amount = between(random, 2, 7);
    for (let i = 0; i < noisy.data.length; i += 4)
      for (let k = 0; k < 3; k++) noisy.data[i + k] = noisy.data[i + k]! + (random() + random() - 1) * amount;
    out.getContext('2d').putImageData(noisy, 0, 0);
  }
  const jpeg = how === 'phone' || random() < 0.6;
  const image = jpeg
    ? out.encodeSync('jpeg', Math.round(how === 'phone' ? between(random, 45, 90) : between(random, 60, 95)))
    : out.encodeSync('png');
  return { image, width, height, corners, glare };
}
