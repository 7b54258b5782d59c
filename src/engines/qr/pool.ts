/**
 * Rendering off the event loop: a render takes tens to hundreds of milliseconds of CPU, which
 * would otherwise hold up every request the process serves. Workers are started on first use and
 * reused; each takes one render at a time, the rest wait in order.
 */
import { Worker } from 'node:worker_threads';
import { TooDense } from './layout.js';
import { Unscannable, type QrArt, type QrArtRequest } from './render.js';

interface Pending {
  id: number;
  request: QrArtRequest;
  resolve: (art: QrArt) => void;
  reject: (error: Error) => void;
}

type Reply =
  | { id: number; art: Omit<QrArt, 'png'> & { png: Uint8Array } }
  | { id: number; error: { kind: 'too-dense' | 'unscannable' | 'other'; message: string } };

/** The worker's script: compiled next to this module, or its source loader from source. */
function workerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './render-worker-source.mjs' : './render-worker.js', import.meta.url);
}

/** An error of the worker as the class it had there, which callers tell apart. */
function rebuilt(kind: 'too-dense' | 'unscannable' | 'other', message: string): Error {
  if (kind === 'too-dense') return new TooDense(message);
  if (kind === 'unscannable') return new Unscannable(message);
  return new Error(message);
}

export class RenderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private started = 0;
  private next = 1;

  constructor(private readonly size: number) {}

  render(request: QrArtRequest): Promise<QrArt> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.next++, request, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const job = this.queue.shift() as Pending;
      this.busy.set(worker, job);
      // A render in progress keeps the process alive; an idle worker does not.
      worker.ref();
      worker.postMessage({ id: job.id, request: job.request });
    }
  }

  private spawn(): Worker {
    const worker = new Worker(workerUrl());
    this.started += 1;
    worker.on('message', (reply: Reply) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.idle.push(worker);
      worker.unref();
      if (job) {
        if ('art' in reply) job.resolve({ ...reply.art, png: Buffer.from(reply.art.png) });
        else job.reject(rebuilt(reply.error.kind, reply.error.message));
      }
      this.dispatch();
    });
    worker.on('error', (error) => {
      // A worker that died takes its render with it; a new one replaces it.
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.started -= 1;
      job?.reject(error);
      this.dispatch();
    });
    return worker;
  }
}
