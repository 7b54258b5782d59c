/**
 * A line crop as Tesseract is shown it: resized, stretched so its ink is black and its paper
 * white, on a white margin. The Chinese model misreads a character or two in a line, and which
 * ones depends on the size it is given, so a line is read in several views and the readings are
 * combined (consensus.ts).
 */
import type { Tones } from './raster.js';
import type { GreyRaster } from './tesseract.js';

export interface View {
  /** Size factor applied to the crop. */
  scale: number;
  /** Cut to black and white at the middle between ink and paper: another reading of faint or smeared print. */
  binarised?: boolean;
}

/** White margin around every view: Tesseract reads a line better with room around it. */
export const VIEW_MARGIN = 10;

/** Resamples to `scale`: the area average when reducing (no aliasing of thin strokes), bilinear otherwise. */
function resized(raster: GreyRaster, scale: number): Float32Array {
  const width = Math.max(1, Math.round(raster.width * scale));
  const height = Math.max(1, Math.round(raster.height * scale));
  const out = new Float32Array(width * height);
  const { data } = raster;
  const step = 1 / scale;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (scale < 1) {
        const x0 = x * step;
        const y0 = y * step;
        let sum = 0;
        let area = 0;
        for (let sy = Math.floor(y0); sy < Math.min(raster.height, Math.ceil(y0 + step)); sy++) {
          const wy = Math.min(sy + 1, y0 + step) - Math.max(sy, y0);
          for (let sx = Math.floor(x0); sx < Math.min(raster.width, Math.ceil(x0 + step)); sx++) {
            const w = wy * (Math.min(sx + 1, x0 + step) - Math.max(sx, x0));
            sum += data[sy * raster.width + sx]! * w;
            area += w;
          }
        }
        out[y * width + x] = area > 0 ? sum / area : 255;
      } else {
        const fx = Math.max(0, Math.min(raster.width - 1, (x + 0.5) * step - 0.5));
        const fy = Math.max(0, Math.min(raster.height - 1, (y + 0.5) * step - 0.5));
        const x0 = Math.floor(fx);
        const y0 = Math.floor(fy);
        const x1 = Math.min(raster.width - 1, x0 + 1);
        const y1 = Math.min(raster.height - 1, y0 + 1);
        const ax = fx - x0;
        const ay = fy - y0;
        const top = data[y0 * raster.width + x0]! * (1 - ax) + data[y0 * raster.width + x1]! * ax;
        const bottom = data[y1 * raster.width + x0]! * (1 - ax) + data[y1 * raster.width + x1]! * ax;
        out[y * width + x] = top * (1 - ay) + bottom * ay;
      }
    }
  }
  return out;
}

/** The crop as `view` shows it. */
export function viewOf(raster: GreyRaster, tones: Tones, view: View): GreyRaster {
  const values = resized(raster, view.scale);
  const innerWidth = Math.max(1, Math.round(raster.width * view.scale));
  const innerHeight = values.length / innerWidth;
  const width = innerWidth + 2 * VIEW_MARGIN;
  const height = innerHeight + 2 * VIEW_MARGIN;
  const data = new Uint8Array(width * height).fill(255);
  const span = Math.max(1, tones.paper - tones.ink);
  for (let y = 0; y < innerHeight; y++) {
    for (let x = 0; x < innerWidth; x++) {
      const v = ((values[y * innerWidth + x]! - tones.ink) * 255) / span;
      const level = view.binarised ? (v < 128 ? 0 : 255) : v;
      data[(y + VIEW_MARGIN) * width + x + VIEW_MARGIN] = Math.max(0, Math.min(255, Math.round(level)));
    }
  }
  return { width, height, data };
}
