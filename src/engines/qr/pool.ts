/**
 * Rendering off the event loop, one render per worker thread at a time; content images are
 * decoded there too (a JavaScript JPEG decoder takes a tenth of a second for 720p).
 */
import type { Canvas } from '../canvas.js';
import { UnreadableImage } from '../image-codec.js';
import { scriptNextTo, WorkerPool } from '../worker-pool.js';
import { TooDense } from './layout.js';
import { Unscannable, type QrArt, type QrArtRequest } from './render.js';

export class RenderPool {
  private readonly pool: WorkerPool;

  constructor(size: number) {
    this.pool = new WorkerPool(scriptNextTo(import.meta.url, 'render-worker'), size, {
      TooDense,
      Unscannable,
      UnreadableImage,
    });
  }

  /** A PNG or JPEG of at most `maxPixels`, as a canvas; `bytes` move to the worker thread. */
  readImage(bytes: Buffer, maxPixels: number): Promise<Canvas> {
    return this.pool.call('readImage', [bytes, maxPixels], { move: true });
  }

  /** The request's content image moves to the worker thread: the caller does not read it again. */
  async render(request: QrArtRequest): Promise<QrArt> {
    const art = await this.pool.call<Omit<QrArt, 'png'> & { png: Uint8Array }>('render', [request], {
      move: true,
    });
    return { ...art, png: Buffer.from(art.png.buffer, art.png.byteOffset, art.png.byteLength) };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
