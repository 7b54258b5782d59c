/**
 * Under the sea: the water itself in place of the sky, lighter toward the surface with shafts of
 * light slanting down through it, and a seabed of sand with rocks, weed and coral. What swims
 * swims anywhere in the water (thing-layout.ts), bubbles rise through all of it (particles.ts).
 */
import { fbm1, type Rgb } from '../paint/index.js';
import { disc, fillColumns, mixRgb, packed, shade, stroke } from './draw.js';
import { extentOf, type Layer } from './layer.js';
import { cellRandom, formRandom, lit, type Stage } from './stage.js';

/** Below the horizon, in frame heights, where the seabed begins. */
export const SEABED_LINE = 0.14;

/** The water over the whole far layer: the surface's light above, the deep below, and rays. */
export function paintWater(layer: Layer, s: Stage): void {
  const u = s.unit;
  const surface = lit(s, mixRgb(s.palette.colors[0]!, [120, 206, 230], 0.6));
  const deep = lit(s, mixRgb(s.palette.colors[2]!, [8, 42, 88], 0.7));
  const random = formRandom(s, 'water');
  const phase = random() * 10;
  const d = layer.density;
  for (let py = 0; py < layer.height; py += 1) {
    const y = (py - layer.oy) / d;
    // From the surface, half a frame above the horizon, into the deep a frame below it.
    const depth = Math.min(1, Math.max(0, (y - (s.horizon - 0.5 * u)) / (1.2 * u)));
    const base = mixRgb(surface, deep, depth ** 0.8);
    const reach = Math.max(0, 1 - depth * 1.6);
    for (let px = 0; px < layer.width; px += 1) {
      const x = (px - layer.ox) / d;
      // Shafts of light, slanting, fading with depth.
      const ray = Math.max(0, Math.sin((x + 0.4 * y) / (0.09 * u) + phase)) ** 12 * reach;
      layer.data[py * layer.width + px] = packed(mixRgb(base, [220, 246, 255], 0.28 * ray));
    }
  }
}

/** Sand from the seabed line down, with rocks, swaying weed (painted still) and coral. */
export function paintSeabed(layer: Layer, s: Stage): void {
  const u = s.unit;
  const [left, , right, bottom] = extentOf(layer);
  const random = formRandom(s, 'seabed');
  const swell = fbm1(random, 3);
  const floor = (x: number) => s.horizon + (SEABED_LINE + 0.04 * (swell(x / (0.5 * u)) - 0.5)) * u;
  const sand = lit(s, mixRgb([206, 190, 150], s.palette.colors[0]!, 0.25));
  const water: Rgb = lit(s, [20, 70, 110]);
  fillColumns(
    layer,
    floor,
    () => bottom,
    (x, y) => {
      const near = Math.min(1, (y - floor(x)) / (0.4 * u));
      // Far sand is lost in the blue of the water between.
      return packed(mixRgb(sand, water, 0.55 * (1 - near)));
    },
  );
  const cell = 0.16 * u;
  for (let k = Math.floor(left / cell) - 1; k <= Math.ceil(right / cell); k += 1) {
    const r = cellRandom(s, 'seabed', k);
    const x = (k + r()) * cell;
    const foot = floor(x) + r() * 0.08 * u;
    const scale = 0.6 + (foot - s.horizon) / u;
    const what = r();
    if (what < 0.3) {
      disc(layer, x, foot, 0.04 * u * scale, lit(s, shade([92, 96, 104], 0.7 + 0.3 * r())), 1);
    } else if (what < 0.7) {
      // Weed: a few blades curving up from one root.
      const green = lit(s, mixRgb([40, 120, 70], s.palette.colors[1]!, 0.2));
      for (let blade = 0; blade < 3; blade += 1) {
        let [bx, by] = [x + (blade - 1) * 0.01 * u, foot];
        const lean = (r() - 0.5) * 0.02 * u;
        const height = (0.12 + 0.12 * r()) * u * scale;
        for (let step = 0; step < 6; step += 1) {
          const nx = bx + lean + Math.sin(step + blade) * 0.008 * u;
          const ny = by - height / 6;
          stroke(
            layer,
            [bx, by],
            [nx, ny],
            0.008 * u * scale * (1 - step / 8),
            shade(green, 0.8 + 0.1 * step),
          );
          [bx, by] = [nx, ny];
        }
      }
    } else {
      // Coral: a cluster of round heads in a warm colour.
      const coral = lit(
        s,
        (
          [
            [240, 110, 110],
            [250, 160, 80],
            [200, 90, 160],
          ] as Rgb[]
        )[Math.floor(r() * 3)]!,
      );
      for (let head = 0; head < 6; head += 1) {
        const a = r() * Math.PI;
        const reach = 0.04 * u * scale * r();
        disc(
          layer,
          x + Math.cos(a) * reach,
          foot - Math.sin(a) * reach,
          0.018 * u * scale,
          shade(coral, 0.8 + 0.3 * r()),
          1,
        );
      }
    }
  }
}
