/**
 * Between the engine's Canvas (plain RGBA) and a Skia drawing surface: the generator draws type,
 * curves and gradients with @napi-rs/canvas and does pixel work on the plain buffer.
 */
import { createCanvas, type Canvas as SkiaCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Canvas } from '../../../src/engines/canvas.js';

export interface Surface {
  skia: SkiaCanvas;
  ctx: SKRSContext2D;
}

export function surface(width: number, height: number): Surface {
  const skia = createCanvas(width, height);
  return { skia, ctx: skia.getContext('2d') };
}

export function pixelsOf({ skia, ctx }: Surface): Canvas {
  const image = ctx.getImageData(0, 0, skia.width, skia.height);
  return { width: skia.width, height: skia.height, data: new Uint8Array(image.data.buffer) };
}

/** A surface that starts as a copy of `canvas`, to draw over it. */
export function surfaceOf(canvas: Canvas): Surface {
  const drawn = surface(canvas.width, canvas.height);
  const image = drawn.ctx.createImageData(canvas.width, canvas.height);
  image.data.set(canvas.data);
  drawn.ctx.putImageData(image, 0, 0);
  return drawn;
}
