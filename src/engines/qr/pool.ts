/** Rendering off the event loop, one render per worker thread at a time. */
import { scriptNextTo, WorkerPool } from '../worker-pool.js';
import { TooDense } from './layout.js';
import { Unscannable, type QrArt, type QrArtRequest } from './render.js';

export class RenderPool {
  private readonly pool: WorkerPool;

  constructor(size: number) {
    this.pool = new WorkerPool(scriptNextTo(import.meta.url, 'render-worker'), size, {
      TooDense,
      Unscannable,
    });
  }

  async render(request: QrArtRequest): Promise<QrArt> {
    const art = await this.pool.call<Omit<QrArt, 'png'> & { png: Uint8Array }>('render', [request]);
    return { ...art, png: Buffer.from(art.png.buffer, art.png.byteOffset, art.png.byteLength) };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
