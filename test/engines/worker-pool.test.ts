/**
 * The engines' worker pool gives its threads back when idle: each worker is a V8 isolate whose
 * heap and buffers a server would otherwise keep after its load stops. A call whose arguments
 * cannot be sent fails alone, and its worker goes on serving. A call its caller gives up is
 * dropped, or stopped part way. Real QR renders and video renders, on their own worker scripts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/engines/worker-pool.js';
import type { QrArt, QrArtRequest } from '../../src/engines/qr/index.js';
import type { StepProgress } from '../../src/engines/worker-pool.js';
import type { VideoSpec } from '../../src/engines/video/types.js';
import { decodeWithJsqr } from '../support/qr-decoders.js';

const SCRIPT = new URL('../../src/engines/qr/render-worker.ts', import.meta.url);
const IDLE_MS = 300;
const pools: WorkerPool[] = [];

function pool(size = 2): WorkerPool {
  const made = new WorkerPool(SCRIPT, size, {}, IDLE_MS);
  pools.push(made);
  return made;
}

const request = (content: string): QrArtRequest => ({
  content,
  type: 'text',
  ecl: 'H',
  seed: 7,
  aspectRatio: '1:1',
});

async function render(on: WorkerPool, content: string): Promise<string | null> {
  const art = await on.call<Omit<QrArt, 'png'> & { png: Uint8Array }>('render', [request(content)]);
  return decodeWithJsqr(Buffer.from(art.png));
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

afterEach(async () => {
  await Promise.all(pools.splice(0).map((made) => made.close()));
});

describe('WorkerPool', () => {
  it('ends its idle workers and starts them again for the next call, which renders', async () => {
    const renders = pool();
    expect(renders.threads).toBe(0);
    const both = Promise.all([render(renders, 'first one'), render(renders, 'second one')]);
    expect(renders.threads).toBe(2);
    expect(await both).toEqual(['first one', 'second one']);

    await sleep(IDLE_MS * 3);
    expect(renders.threads).toBe(0);

    expect(await render(renders, 'after the pool shrank')).toBe('after the pool shrank');
    expect(renders.threads).toBe(1);
  });

  it('fails a call whose arguments cannot be sent to its worker, and the worker serves the next', async () => {
    const renders = pool(1);
    const unsendable = { ...request('never rendered'), onDone: () => undefined };
    await expect(renders.call('render', [unsendable])).rejects.toThrow(/could not be cloned/);
    expect(await render(renders, 'the call after')).toBe('the call after');
  });

  it('stops a render its caller gave up, drops a call still waiting, and serves the next call', async () => {
    const videos = new WorkerPool(new URL('../../src/engines/video/video-worker.ts', import.meta.url), 1);
    pools.push(videos);
    // 10 s of 720p: tens of seconds of painting and encoding on one core if it ran to its end.
    const long: VideoSpec = {
      seed: 3,
      prompt: 'a lighthouse at dusk',
      cfgScale: 1,
      width: 1280,
      height: 720,
      fps: 24,
      frames: 240,
      quality: 'std',
    };
    const stop = new AbortController();
    const painted: number[] = [];
    const onProgress = (progress: StepProgress) => {
      painted.push(progress.fraction);
      if (progress.fraction >= 0.05) stop.abort(new Error('cancelled by the client'));
    };
    const running = videos.call('renderVideo', [long], { onProgress, signal: stop.signal });
    const queued = new AbortController();
    const waiting = videos.call('renderVideo', [long], { signal: queued.signal });
    queued.abort(new Error('gone while waiting'));
    await expect(waiting).rejects.toThrow('gone while waiting');

    const started = Date.now();
    await expect(running).rejects.toThrow();
    // It stopped soon after the abort, far short of the whole render.
    expect(Math.max(...painted)).toBeLessThan(0.5);
    const next = await videos.call<{ frames: number }>('renderVideo', [
      { ...long, width: 320, height: 180, frames: 6 },
    ]);
    expect(next.frames).toBe(6);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
