/** PNG out (png-writer.ts), and PNG or JPEG in (content images, reference frames, ID cards). */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { Canvas } from './canvas.js';

export { encodePng } from './png-writer.js';

export class UnreadableImage extends Error {}

/** A PNG or JPEG as RGBA; anything else is an UnreadableImage naming what it found. */
export function decodeImage(bytes: Buffer, maxPixels: number): Canvas {
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  try {
    if (isPng) {
      const png = PNG.sync.read(bytes);
      if (png.width * png.height > maxPixels)
        throw new UnreadableImage(`is ${png.width}×${png.height}, larger than ${maxPixels} pixels`);
      return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
    }
    if (isJpeg) {
      const image = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: maxPixels / 1e6,
      });
      return { width: image.width, height: image.height, data: image.data };
    }
  } catch (error) {
    if (error instanceof UnreadableImage) throw error;
    throw new UnreadableImage(`is not a readable ${isPng ? 'PNG' : 'JPEG'} (${(error as Error).message})`);
  }
  throw new UnreadableImage('must be a PNG or JPEG image');
}
