/**
 * The card as a phone photographs it or a flatbed scans it. A phone sees it in perspective,
 * turned, anywhere in a landscape or portrait frame, on some surface, with a soft shadow under
 * it, slightly out of focus, with sensor noise and a falling-off towards the corners, saved as
 * JPEG; a scanner lays it nearly square near a corner of the lid, evenly lit and sharp, saved as
 * PNG or high-quality JPEG.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { Random } from '../../../src/engines/random.js';
import { homography, type Point } from './homography.js';
import { chooseSurface, drawSurface, type Surface } from './scene.js';

export type CaptureKind = 'phone' | 'scan';

export interface Captured {
  image: Buffer;
  /** The card's corners in the image, clockwise from the top left of its printed side. */
  corners: Point[];
  surface: Surface;
  format: 'jpeg' | 'png';
}

const between = (random: Random, low: number, high: number) => low + (high - low) * random();

function placement(kind: CaptureKind, card: Canvas, width: number, height: number, random: Random): Point[] {
  const aspect = card.height / card.width;
  if (kind === 'scan') {
    const angle = between(random, -0.05, 0.05);
    const w = card.width;
    const [x0, y0] = [between(random, 30, width - w - 60), between(random, 30, height - w * aspect - 60)];
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    return [
      [0, 0],
      [w, 0],
      [w, w * aspect],
      [0, w * aspect],
    ].map(([x, y]) => [x0 + x! * c - y! * s + 20, y0 + x! * s + y! * c + 20] as Point);
  }
  // Phone: the card takes 55–80% of the frame's shorter side's room, turned up to 25°, seen at a slant.
  const w = Math.min(width, height * 1.4) * between(random, 0.55, 0.8);
  const h = w * aspect;
  const angle = between(random, -0.44, 0.44);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const reach = (Math.abs(w * c) + Math.abs(h * s)) / 2 + 12;
  const reachY = (Math.abs(w * s) + Math.abs(h * c)) / 2 + 12;
  const cx = between(random, reach, Math.max(reach, width - reach));
  const cy = between(random, reachY, Math.max(reachY, height - reachY));
  // Foreshortening: the far edge of the card narrower than the near one.
  const slantX = between(random, -0.12, 0.12);
  const slantY = between(random, -0.1, 0.1);
  const corners: Point[] = [
    [(-w / 2) * (1 - slantY), (-h / 2) * (1 - slantX)],
    [(w / 2) * (1 - slantY), (-h / 2) * (1 + slantX)],
    [(w / 2) * (1 + slantY), (h / 2) * (1 + slantX)],
    [(-w / 2) * (1 + slantY), (h / 2) * (1 - slantX)],
  ];
  return corners.map(([x, y]) => [cx + x * c - y * s, cy + x * s + y * c]);
}

/** Lays the card's pixels over the scene through the inverse map, sampling bilinearly. */
function composite(scene: Canvas, card: Canvas, corners: Point[]): void {
  const ctx = scene.getContext('2d');
  const frame = ctx.getImageData(0, 0, scene.width, scene.height);
  // Plain copies: indexing the canvas's own buffers element by element is many times slower.
  const out = new Uint8ClampedArray(frame.data);
  const src = new Uint8ClampedArray(card.getContext('2d').getImageData(0, 0, card.width, card.height).data);
  const back = homography(corners, [
    [0, 0],
    [card.width, 0],
    [card.width, card.height],
    [0, card.height],
  ]);
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const [x0, x1] = [
    Math.max(0, Math.floor(Math.min(...xs))),
    Math.min(scene.width - 1, Math.ceil(Math.max(...xs))),
  ];
  const [y0, y1] = [
    Math.max(0, Math.floor(Math.min(...ys))),
    Math.min(scene.height - 1, Math.ceil(Math.max(...ys))),
  ];
  const sw = card.width;
  const [ha, hb, hc, hd, he, hf, hg, hh] = back as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // The map written out per pixel: this loop runs about a million times per image.
  for (let y = y0; y <= y1; y += 1)
    for (let x = x0; x <= x1; x += 1) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w = hg * px + hh * py + 1;
      const u = (ha * px + hb * py + hc) / w;
      const v = (hd * px + he * py + hf) / w;
      if (u < 0 || v < 0 || u >= card.width - 1 || v >= card.height - 1) continue;
      const ix = Math.floor(u);
      const iy = Math.floor(v);
      const fx = u - ix;
      const fy = v - iy;
      const a = (iy * sw + ix) * 4;
      const b = a + sw * 4;
      const w00 = (1 - fx) * (1 - fy);
      const w01 = fx * (1 - fy);
      const w10 = (1 - fx) * fy;
      const w11 = fx * fy;
      const alpha = (src[a + 3]! * w00 + src[a + 7]! * w01 + src[b + 3]! * w10 + src[b + 7]! * w11) / 255;
      const at = (y * scene.width + x) * 4;
      for (let ch = 0; ch < 3; ch += 1) {
        const value =
          src[a + ch]! * w00 + src[a + 4 + ch]! * w01 + src[b + ch]! * w10 + src[b + 4 + ch]! * w11;
        out[at + ch] = value * alpha + out[at + ch]! * (1 - alpha);
      }
    }
  frame.data.set(out);
  ctx.putImageData(frame, 0, 0);
}

/** Sensor noise and, for a phone, the darkening towards the frame's corners. */
function sensor(canvas: Canvas, noise: number, vignette: number, random: Random): void {
  const ctx = canvas.getContext('2d');
  if (vignette > 0) {
    const { width: w, height: h } = canvas;
    const g = ctx.createRadialGradient(
      w / 2,
      h / 2,
      Math.min(w, h) * 0.35,
      w / 2,
      h / 2,
      Math.hypot(w, h) / 2,
    );
    g.addColorStop(0, 'rgba(0,0,0,0)');
    g.addColorStop(1, `rgba(0,0,0,${vignette})`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
  }
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const d = new Uint8ClampedArray(pixels.data);
  // An inline xorshift per pixel rather than the seeded generator: millions of draws per image.
  let state = Math.floor(random() * 0xffffffff) | 1;
  for (let i = 0; i < d.length; i += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const n = ((state >>> 0) / 4294967296 - 0.5) * 1.7 * noise;
    d[i] = d[i]! + n;
    d[i + 1] = d[i + 1]! + n;
    d[i + 2] = d[i + 2]! + n;
  }
  pixels.data.set(d);
  ctx.putImageData(pixels, 0, 0);
}

export function capture(card: Canvas, kind: CaptureKind, random: Random): Captured {
  const portraitFrame = kind === 'phone' && random() < 0.2;
  const [width, height] = kind === 'scan' ? [1500, 1100] : portraitFrame ? [1200, 1600] : [1600, 1200];
  const surface: Surface = kind === 'scan' ? 'scanner lid' : chooseSurface(random);
  const scene = drawSurface(surface, width, height, random);
  const corners = placement(kind, card, width, height, random);
  if (kind === 'phone') {
    // The card's own soft shadow on the surface, offset away from the light.
    const ctx = scene.getContext('2d');
    const [dx, dy] = [between(random, -12, 12), between(random, 4, 16)];
    ctx.save();
    ctx.filter = `blur(${Math.round(between(random, 6, 14))}px)`;
    ctx.fillStyle = 'rgba(0,0,0,0.45)';
    ctx.beginPath();
    corners.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x + dx, y + dy) : ctx.lineTo(x + dx, y + dy)));
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }
  composite(scene, card, corners);
  const blurred = createCanvas(width, height);
  const bctx = blurred.getContext('2d');
  const focus = kind === 'scan' ? between(random, 0, 0.5) : between(random, 0.4, 1.6);
  if (focus >= 0.6) bctx.filter = `blur(${focus.toFixed(1)}px)`;
  bctx.drawImage(scene, 0, 0);
  sensor(
    blurred,
    kind === 'scan' ? 3 : between(random, 4, 10),
    kind === 'scan' ? 0 : between(random, 0.1, 0.35),
    random,
  );
  const png = kind === 'scan' && random() < 0.5;
  const image = png
    ? blurred.toBuffer('image/png')
    : blurred.toBuffer(
        'image/jpeg',
        Math.round(kind === 'scan' ? between(random, 88, 95) : between(random, 60, 90)),
      );
  return { image, corners, surface, format: png ? 'png' : 'jpeg' };
}
