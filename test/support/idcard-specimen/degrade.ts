/**
 * What happens to a card image between the printer and the server: blur, sensor noise,
 * underexposure, a photocopier, a phone pointed at a screen, a reflection, JPEG. Each works on
 * the RGBA pixels in place (blur returns new ones, JPEG the file) and draws whatever it chooses
 * from the Random it is given.
 */
import type { Canvas } from '../../../src/engines/canvas.js';
import type { Random } from '../../../src/engines/random.js';
import { pixelsOf, surface, surfaceOf } from './surface.js';

const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));

/** The pixels as a clamped view: writes round and saturate without a branch in the loop. */
const clamped = ({ data }: Canvas) => new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);

/**
 * A Gaussian blur of standard deviation `sigma` pixels (Skia's blur filter). The blur is drawn
 * over the sharp image so that the frame's edges, where the filter fades to transparent, keep
 * their own pixels rather than darkening.
 */
export function gaussianBlur(canvas: Canvas, sigma: number): Canvas {
  const sharp = surfaceOf(canvas);
  const blurred = surface(canvas.width, canvas.height);
  blurred.ctx.drawImage(sharp.skia, 0, 0);
  blurred.ctx.filter = `blur(${sigma}px)`;
  blurred.ctx.drawImage(sharp.skia, 0, 0);
  return pixelsOf(blurred);
}

/** 4096 standard normal quantiles: a deviate is one table lookup. */
const NORMAL = Float32Array.from({ length: 4096 }, (_, i) => {
  // Inverse of the logistic approximation of the normal CDF, close enough for image grain.
  const p = (i + 0.5) / 4096;
  return Math.log(p / (1 - p)) / 1.702;
});

/** Sensor noise: grain in brightness, weaker in colour, stronger in the shadows. */
export function addSensorNoise(canvas: Canvas, random: Random): void {
  const strength = 4 + 5 * random();
  const data = clamped(canvas);
  // A fast generator (xorshift32) seeded from the stream: four deviates per 48 random bits.
  let state = (Math.floor(random() * 2 ** 32) | 1) >>> 0;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  for (let o = 0; o < data.length; o += 4) {
    const a = next();
    const b = next();
    const shadow = 1.6 - (data[o]! + data[o + 1]! + data[o + 2]!) / 765;
    const grain = NORMAL[a & 4095]! * strength * shadow;
    const tint = strength * 0.35;
    data[o] = data[o]! + grain + NORMAL[(a >>> 12) & 4095]! * tint;
    data[o + 1] = data[o + 1]! + grain + NORMAL[b & 4095]! * tint;
    data[o + 2] = data[o + 2]! + grain + NORMAL[(b >>> 12) & 4095]! * tint;
  }
}

/** Underexposure with light falling off across the frame from one side. */
export function underexpose(canvas: Canvas, random: Random): void {
  const { width, height } = canvas;
  const data = clamped(canvas);
  const gain = 0.45 + 0.2 * random();
  const falloff = 0.3 + 0.25 * random();
  const angle = random() * 2 * Math.PI;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const reach = Math.abs(ux) * width + Math.abs(uy) * height;
  const curve = Uint8Array.from({ length: 256 }, (_, v) => clamp(255 * (v / 255) ** 1.2));
  const start = Math.min(0, ux * width) + Math.min(0, uy * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const along = (x * ux + y * uy - start) / reach;
      const factor = gain * (1 - falloff * along);
      const o = (y * width + x) * 4;
      data[o] = curve[data[o]!]! * factor;
      data[o + 1] = curve[data[o + 1]!]! * factor;
      data[o + 2] = curve[data[o + 2]!]! * factor;
    }
  }
}

/** A photocopy: grey, high contrast (paper white, toner black) and toner specks. */
export function photocopy(canvas: Canvas, random: Random): void {
  const { width, height, data } = canvas;
  const black = 45 + 30 * random();
  const white = 195 + 25 * random();
  const curve = Uint8Array.from({ length: 256 }, (_, v) =>
    clamp(255 * Math.min(1, Math.max(0, (v - black) / (white - black))) ** 0.85),
  );
  for (let o = 0; o < data.length; o += 4) {
    const grey = curve[Math.round(0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!)]!;
    data[o] = data[o + 1] = data[o + 2] = grey;
  }
  const specks = Math.round((width * height) / (1500 + 1500 * random()));
  for (let i = 0; i < specks; i++) {
    const x = Math.floor(random() * (width - 2));
    const y = Math.floor(random() * (height - 2));
    const size = random() < 0.8 ? 1 : 2;
    const tone = Math.round(20 + 90 * random());
    for (let dy = 0; dy < size; dy++)
      for (let dx = 0; dx < size; dx++) {
        const o = ((y + dy) * width + x + dx) * 4;
        data[o] = data[o + 1] = data[o + 2] = Math.min(data[o]!, tone);
      }
  }
}

/**
 * A photograph of a screen: the screen's pixel grid beating against the camera's gives coloured
 * interference bands, and the red, green and blue sub-pixels show as a fine column pattern.
 */
export function screenMoire(canvas: Canvas, random: Random): void {
  const { width, height } = canvas;
  const data = clamped(canvas);
  const period = 5 + 7 * random();
  const angle = random() * Math.PI;
  const [fx, fy] = [Math.cos(angle) / period, Math.sin(angle) / period];
  const warp = 0.6 + random();
  const warpPeriod = 120 + 200 * random();
  const depth = 0.12 + 0.08 * random();
  const subpixel = 0.12 + 0.08 * random();
  const gap = 0.9 + 0.05 * random();
  // The band factor per channel over one turn of phase, 1024 steps.
  const bands = [0, 1, 2].map((c) =>
    Float32Array.from(
      { length: 1024 },
      (_, i) => 1 + depth * Math.cos((2 * Math.PI * i) / 1024 + (c * 2 * Math.PI) / 3),
    ),
  );
  const cells = [0, 1, 2].map((lit) => [0, 1, 2].map((c) => (c === lit ? 1 + subpixel : 1 - subpixel / 2)));
  for (let y = 0; y < height; y++) {
    const rowGap = y % 3 === 2 ? gap : 1;
    const rowTurns = y * fy + warp * Math.sin((2 * Math.PI * y) / warpPeriod);
    for (let x = 0; x < width; x++) {
      const turns = x * fx + rowTurns;
      const step = Math.floor((turns - Math.floor(turns)) * 1024) & 1023;
      const cell = cells[x % 3]!;
      const o = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[o + c] = data[o + c]! * bands[c]![step]! * cell[c]! * rowGap;
    }
  }
}

/** A place on the image kept clear of an effect. */
export interface Clear {
  /** Nothing at or below this row is touched. */
  belowY: number;
}

/**
 * A specular reflection: an elliptical blob that washes the card out to near white at its core,
 * kept above `clear.belowY` (on the card, the number line).
 */
export function specularGlare(canvas: Canvas, random: Random, clear: Clear): void {
  const { width, data } = canvas;
  const cy = 90 + (clear.belowY - 230) * random();
  const ry = Math.min(70 + 90 * random(), clear.belowY - 8 - cy);
  const rx = ry * (1.3 + 1.2 * random());
  const cx = rx * 0.5 + (width - rx) * random();
  const strength = 0.9 + 0.1 * random();
  const [warmR, warmB] = [255, 236 + 19 * random()];
  const y0 = Math.max(0, Math.floor(cy - ry));
  const y1 = Math.min(clear.belowY - 1, Math.ceil(cy + ry));
  for (let y = y0; y <= y1; y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(width - 1, Math.ceil(cx + rx)); x++) {
      const d2 = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
      if (d2 >= 1) continue;
      // Flat-topped: the core is blown out, the rim fades.
      const wash = strength * Math.min(1, 1.8 * (1 - d2) ** 2);
      const o = (y * width + x) * 4;
      const target = [warmR, 255, warmB];
      for (let c = 0; c < 3; c++) data[o + c] = clamp(data[o + c]! + (target[c]! - data[o + c]!) * wash);
    }
  }
}

/** The image as a JPEG file of `quality` (0–100). */
export function jpegFile(canvas: Canvas, quality: number): Buffer {
  return surfaceOf(canvas).skia.encodeSync('jpeg', quality);
}
