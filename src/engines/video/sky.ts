/**
 * The far layer: sky from the horizon up (the hour's gradient, stars and a nebula at night, the
 * sun or the moon where the prompt names them), distant ground below it, then clouds and a
 * planet. Abstract scenes without ground get the palette's own procedural pattern instead.
 */
import { canvasOf } from '../canvas.js';
import { noise2, paintBackground, type Rgb } from '../paint/index.js';
import { disc, mixRgb, packed, shade } from './draw.js';
import { extentOf, type Layer } from './layer.js';
import { cellRandom, formRandom, lit, snowLit, type Stage } from './stage.js';
import { paintWater } from './underwater.js';
import { isGround, type Form } from './vocabulary.js';

function gradient(layer: Layer, s: Stage, ground: boolean): void {
  const u = s.unit;
  // The distant ground, under snow in winter.
  const own = s.snowy ? snowLit(s, [226, 234, 246]) : lit(s, shade(s.palette.colors[2]!, 0.85));
  const far = mixRgb(own, s.skyLow, s.snowy ? 0.3 : 0.5);
  for (let py = 0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / layer.density;
    const color =
      ground && y > s.horizon
        ? shade(far, 1 - 0.3 * Math.min(1, (y - s.horizon) / u))
        : mixRgb(s.skyLow, s.skyTop, Math.min(1, Math.max(0, (s.horizon - y) / (0.9 * u))));
    layer.data.fill(packed(color), py * layer.width, (py + 1) * layer.width);
  }
}

function stars(layer: Layer, s: Stage): void {
  const random = formRandom(s, 'stars');
  const [left, top, right] = extentOf(layer);
  const count = Math.round((((right - left) * (s.horizon - top)) / (s.unit * s.unit)) * 160);
  for (let i = 0; i < count; i += 1) {
    const tint: Rgb = mixRgb([255, 255, 255], s.palette.colors[i % 3]!, random() * 0.4);
    disc(
      layer,
      left + random() * (right - left),
      top + random() * (s.horizon - top),
      s.unit * (0.001 + random() * 0.002),
      tint,
      0.4 + random() * 0.6,
    );
  }
}

function nebula(layer: Layer, s: Stage): void {
  const cloud = noise2(formRandom(s, 'nebula'));
  const color = shade(s.palette.colors[0]!, 1.1);
  const scale = 3 / s.unit;
  for (let py = 0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / layer.density;
    for (let px = 0; px < layer.width; px += 1) {
      const x = (px - layer.ox) / layer.density;
      const n = cloud(x * scale, y * scale) * 0.6 + cloud(x * scale * 2.3 + 7, y * scale * 2.3) * 0.4;
      const a = Math.max(0, n - 0.55) * 1.2;
      if (a > 0.02) {
        const i = py * layer.width + px;
        const d = layer.data[i]!;
        const mixOf = (shift: number, c: number) => ((d >>> shift) & 0xff) * (1 - a) + c * a;
        layer.data[i] = packed([mixOf(0, color[0]), mixOf(8, color[1]), mixOf(16, color[2])]);
      }
    }
  }
}

/** The sun: high and white by day, low, large and orange at dawn and dusk. */
function sun(layer: Layer, s: Stage): void {
  const random = formRandom(s, 'sun');
  const u = s.unit;
  const x = (random() - 0.5) * 0.6 * s.width;
  const high = s.time === 'day';
  const y = s.horizon - (high ? 0.3 + random() * 0.08 : 0.07 + random() * 0.04) * u;
  const color: Rgb = high ? [255, 250, 226] : [255, 184, 96];
  disc(layer, x, y, (high ? 0.2 : 0.26) * u, high ? [255, 244, 210] : [255, 150, 80], 0.35, 1);
  disc(layer, x, y, (high ? 0.045 : 0.065) * u, color, 1);
}

/** The moon: a bright disc with a few darker seas, pale by day. */
function moon(layer: Layer, s: Stage): void {
  const random = formRandom(s, 'moon');
  const u = s.unit;
  const x = (random() - 0.5) * 0.6 * s.width;
  const y = s.horizon - (0.26 + random() * 0.1) * u;
  const r = 0.05 * u;
  const dark = s.time === 'night' || s.time === 'dusk';
  const face: Rgb = dark ? [244, 242, 228] : [236, 240, 248];
  if (dark) disc(layer, x, y, 3 * r, face, 0.18, 1);
  disc(layer, x, y, r, face, dark ? 1 : 0.75);
  for (let sea = 0; sea < 3; sea += 1) {
    const angle = random() * Math.PI * 2;
    const off = random() * 0.5 * r;
    disc(
      layer,
      x + Math.cos(angle) * off,
      y + Math.sin(angle) * off,
      (0.15 + random() * 0.15) * r,
      shade(face, 0.86),
      0.8,
      0.5,
    );
  }
}

function clouds(layer: Layer, s: Stage): void {
  const u = s.unit;
  const width = 0.5 * u;
  const [left, , right] = extentOf(layer);
  const white = s.night ? shade(s.skyLow, 1.3) : mixRgb(s.palette.paper, [255, 255, 255], 0.6);
  for (let k = Math.floor(left / width) - 1; k <= Math.ceil(right / width); k += 1) {
    const r = cellRandom(s, 'clouds', k);
    const cx = (k + r()) * width;
    const cy = s.horizon - (0.15 + r() * 0.35) * u;
    for (let puff = 0; puff < 8; puff += 1) {
      disc(
        layer,
        cx + (r() - 0.5) * 0.3 * u,
        cy + (r() - 0.5) * 0.06 * u,
        (0.04 + r() * 0.06) * u,
        shade(white, 0.9 + r() * 0.1),
        0.75,
        0.5,
      );
    }
  }
}

function planet(layer: Layer, s: Stage): void {
  const random = formRandom(s, 'planet');
  const u = s.unit;
  const r = (0.15 + random() * 0.15) * u;
  const cx = (random() - 0.5) * 0.9 * u;
  const cy = s.horizon - (0.1 + random() * 0.2) * u;
  const lit = shade(s.palette.colors[0]!, 1.1);
  const dark = shade(s.palette.colors[2]!, 0.35);
  const [lx, ly] = [Math.cos(random() * 6.28), -Math.abs(Math.sin(random() * 6.28))];
  const d = layer.density;
  for (let py = Math.floor(layer.oy + (cy - r) * d); py <= layer.oy + (cy + r) * d; py += 1) {
    for (let px = Math.floor(layer.ox + (cx - r) * d); px <= layer.ox + (cx + r) * d; px += 1) {
      if (px < 0 || py < 0 || px >= layer.width || py >= layer.height) continue;
      const nx = ((px - layer.ox) / d - cx) / r;
      const ny = ((py - layer.oy) / d - cy) / r;
      const rr = nx * nx + ny * ny;
      if (rr > 1) continue;
      const nz = Math.sqrt(1 - rr);
      const lambert = Math.max(0, nx * lx + ny * ly + nz * 0.6);
      const edge = Math.min(1, (1 - Math.sqrt(rr)) * r * d);
      const color = mixRgb(dark, lit, Math.min(1, lambert));
      const i = py * layer.width + px;
      const back = layer.data[i]!;
      const under: Rgb = [back & 0xff, (back >>> 8) & 0xff, (back >>> 16) & 0xff];
      layer.data[i] = packed(mixRgb(under, color, edge));
    }
  }
}

/** A room's back wall, with a window onto the hour's sky left of the middle. */
function wall(layer: Layer, s: Stage): void {
  const u = s.unit;
  const plaster = lit(s, mixRgb(s.palette.colors[0]!, [232, 222, 204], 0.6));
  const [x0, x1, y0, y1] = [-0.55 * u, -0.15 * u, s.horizon - 0.62 * u, s.horizon - 0.22 * u];
  const frame = lit(s, [238, 236, 230]);
  const bar = 0.012 * u;
  for (let py = 0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / layer.density;
    const base = shade(plaster, 0.86 + 0.14 * Math.min(1, Math.max(0, (y - s.horizon + u) / u)));
    const sky = mixRgb(s.skyLow, s.skyTop, Math.min(1, Math.max(0, (y1 - y) / (y1 - y0))));
    for (let px = 0; px < layer.width; px += 1) {
      const x = (px - layer.ox) / layer.density;
      const inside = x > x0 && x < x1 && y > y0 && y < y1;
      const edge =
        inside &&
        (x - x0 < bar ||
          x1 - x < bar ||
          y - y0 < bar ||
          y1 - y < bar ||
          Math.abs(x - (x0 + x1) / 2) < bar / 2 ||
          Math.abs(y - (y0 + y1) / 2) < bar / 2);
      layer.data[py * layer.width + px] = packed(edge ? frame : inside ? sky : base);
    }
  }
}

/** The palette's own pattern over the whole layer, for scenes without a ground. */
function pattern(layer: Layer, s: Stage): void {
  const canvas = canvasOf(layer.width, layer.height);
  paintBackground(canvas, s.palette, formRandom(s, 'pattern'), 4);
  const words = new Int32Array(canvas.data.buffer, canvas.data.byteOffset, layer.width * layer.height);
  layer.data.set(words);
}

/** Paints the whole far layer, opaque. */
export function paintSky(layer: Layer, stage: Stage, forms: readonly Form[]): void {
  const ground = forms.some(isGround);
  // Under the sea there is water overhead, not sky.
  if (forms.includes('seabed')) {
    paintWater(layer, stage);
    return;
  }
  const abstract = !ground && forms.includes('orbs') && !stage.night;
  if (forms.includes('room')) {
    wall(layer, stage);
    return;
  }
  if (abstract) pattern(layer, stage);
  else gradient(layer, stage, ground);
  if (stage.night) {
    stars(layer, stage);
    if (forms.includes('planet')) nebula(layer, stage);
  }
  if (forms.includes('sun')) sun(layer, stage);
  if (forms.includes('moon')) moon(layer, stage);
  if (forms.includes('clouds')) clouds(layer, stage);
  if (forms.includes('planet')) planet(layer, stage);
}
