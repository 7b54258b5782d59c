/** A worker thread that renders: the pool sends requests, the PNG comes back transferred. */
import { parentPort } from 'node:worker_threads';
import { TooDense } from './layout.js';
import { renderQrArt, Unscannable, type QrArtRequest } from './render.js';

parentPort?.on('message', ({ id, request }: { id: number; request: QrArtRequest }) => {
  try {
    const art = renderQrArt(request);
    const png = new Uint8Array(art.png);
    parentPort?.postMessage({ id, art: { ...art, png } }, [png.buffer]);
  } catch (error) {
    const message = (error as Error).message;
    const kind =
      error instanceof TooDense ? 'too-dense' : error instanceof Unscannable ? 'unscannable' : 'other';
    parentPort?.postMessage({ id, error: { kind, message } });
  }
});
