/** A worker thread that renders artistic QR codes for the pool, and decodes their content images. */
import { decodeImage, UnreadableImage } from '../image-codec.js';
import { serveMethods } from '../worker-methods.js';
import { TooDense } from './layout.js';
import { renderQrArt, Unscannable } from './render.js';

function readImage(bytes: Uint8Array, maxPixels: number) {
  return decodeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxPixels);
}

serveMethods({ render: renderQrArt, readImage }, { TooDense, Unscannable, UnreadableImage });
