/**
 * Engine work off the event loop: a QR render or a song takes from tens of milliseconds to
 * seconds of CPU, which would otherwise hold up every request the process serves. A pool runs one
 * worker script; each worker takes one call at a time, the rest wait in order. Workers start on
 * first use and are reused while work keeps coming; a worker left idle for `idleMs` ends, so an
 * idle pool holds no thread (each worker is a V8 isolate whose heap, tens of megabytes after a
 * few renders, is otherwise kept for good) and grows again on the next call. Errors come back as
 * the classes the caller tells apart.
 */
import { Worker } from 'node:worker_threads';
import { buffersOf } from './transferables.js';

/** Error classes that cross the thread boundary by name. */
export type ErrorClasses = Record<string, new (message: string) => Error>;

/** How far a call is, as its method reports it while it runs. */
export interface StepProgress {
  fraction: number;
  stage: string;
}

interface Pending {
  id: number;
  method: string;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: StepProgress) => void;
  move: boolean;
  signal?: AbortSignal;
}

/** How a step runs: who hears its progress, and whether its arguments move to the worker. */
export interface RunOptions {
  onProgress?: (progress: StepProgress) => void;
  /**
   * The typed arrays of the arguments move to the worker thread instead of being copied there
   * (a song's stems are hundreds of megabytes, whose copy holds up the event loop); the caller
   * must not read them again.
   */
  move?: boolean;
  /**
   * The caller gives up: a call still waiting for a worker is dropped at once, and a running one
   * is told to stop (its method stops where it reads `callSignal()`) and fails when it has.
   */
  signal?: AbortSignal;
}

/** What a pool tells a worker: run a method, or stop the call it runs. */
export type Order = { id: number; method: string; args: unknown[] } | { id: number; cancel: true };

/** A worker's message about a call: its progress while it runs, then its result or its error. */
export type Reply =
  | { id: number; progress: StepProgress }
  | { id: number; result: unknown }
  | { id: number; error: { kind: string; message: string } };

/**
 * From source (tests, tsx) a worker first registers tsx's loader, then loads the TypeScript
 * script; built, the compiled script starts directly.
 */
function entryOf(script: URL): { url: URL; workerData: { script: string } } {
  const fromSource = script.pathname.endsWith('.ts');
  const url = fromSource ? new URL('./worker-source.mjs', import.meta.url) : script;
  return { url, workerData: { script: script.href } };
}

/** `./name.js` next to `base`, or `./name.ts` when `base` runs from source. */
export function scriptNextTo(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * How long a worker waits for its next call before it ends: long enough to stay through a burst
 * of tasks, short enough that an idle server is back to its starting memory seconds after its
 * load stops. Starting a worker again costs some tens of milliseconds.
 */
const IDLE_MS = 5000;

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private readonly ending = new Map<Worker, NodeJS.Timeout>();
  private started = 0;
  private next = 1;

  constructor(
    private readonly script: URL,
    private readonly size: number,
    private readonly errors: ErrorClasses = {},
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Worker threads running now, busy or idle: 0 once the pool has been idle for `idleMs`. */
  get threads(): number {
    return this.started;
  }

  call<T>(method: string, args: unknown[], options: RunOptions = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel(call);
      const settled = () => signal?.removeEventListener('abort', onAbort);
      const call: Pending = {
        id: this.next++,
        method,
        args,
        resolve: (value) => {
          settled();
          resolve(value as T);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
        onProgress: options.onProgress,
        move: options.move ?? false,
        signal,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(call);
      this.dispatch();
    });
  }

  /** A call given up: out of the queue if it waits there, else its worker told to stop it. */
  private cancel(call: Pending): void {
    const waiting = this.queue.indexOf(call);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      call.reject(call.signal?.reason as Error);
      return;
    }
    for (const [worker, running] of this.busy)
      if (running === call) worker.postMessage({ id: call.id, cancel: true } satisfies Order);
  }

  async close(): Promise<void> {
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    for (const timer of this.ending.values()) clearTimeout(timer);
    this.ending.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      clearTimeout(this.ending.get(worker));
      this.ending.delete(worker);
      const call = this.queue.shift() as Pending;
      this.busy.set(worker, call);
      // A call in progress keeps the process alive; an idle worker does not.
      worker.ref();
      const moved = call.move ? [...buffersOf(call.args, new Set())] : [];
      try {
        worker.postMessage({ id: call.id, method: call.method, args: call.args } satisfies Order, moved);
      } catch (error) {
        // Arguments that cannot be copied (a function, say) fail their call, not the worker.
        this.busy.delete(worker);
        this.idle.push(worker);
        worker.unref();
        call.reject(error as Error);
        this.endWhenIdle(worker);
      }
    }
  }

  private spawn(): Worker {
    const entry = entryOf(this.script);
    const worker = new Worker(entry.url, { workerData: entry.workerData });
    this.started += 1;
    worker.on('message', (reply: Reply) => {
      const call = this.busy.get(worker);
      if ('progress' in reply) {
        call?.onProgress?.(reply.progress);
        return;
      }
      this.busy.delete(worker);
      this.idle.push(worker);
      worker.unref();
      if (call) {
        if ('result' in reply) call.resolve(reply.result);
        else call.reject(new (this.errors[reply.error.kind] ?? Error)(reply.error.message));
      }
      this.dispatch();
      if (this.idle.includes(worker)) this.endWhenIdle(worker);
    });
    worker.on('error', (error) => {
      // A worker that died takes its call with it; a new one replaces it.
      const call = this.busy.get(worker);
      this.busy.delete(worker);
      clearTimeout(this.ending.get(worker));
      this.ending.delete(worker);
      if (this.idle.includes(worker)) this.idle.splice(this.idle.indexOf(worker), 1);
      this.started -= 1;
      call?.reject(error);
      this.dispatch();
    });
    return worker;
  }

  /** Ends `worker` if no call takes it within `idleMs`. */
  private endWhenIdle(worker: Worker): void {
    const timer = setTimeout(() => {
      this.ending.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at < 0) return;
      this.idle.splice(at, 1);
      this.started -= 1;
      void worker.terminate();
    }, this.idleMs);
    // An idle pool never keeps the process alive.
    this.ending.set(worker, timer.unref());
  }
}

/** A pool whose calls are typed by the module of steps its worker script serves. */
export class StepPool<Steps extends Record<string, (...args: never[]) => unknown>> {
  private readonly pool: WorkerPool;

  /** `size`: steps at a time, each on its own thread. */
  constructor(
    script: URL,
    readonly size: number,
    errors: ErrorClasses = {},
  ) {
    this.pool = new WorkerPool(script, size, errors);
  }

  /** Worker threads running now, busy or idle: 0 once the pool has been idle a while. */
  get threads(): number {
    return this.pool.threads;
  }

  run<K extends keyof Steps & string>(
    step: K,
    ...args: Parameters<Steps[K]>
  ): Promise<Awaited<ReturnType<Steps[K]>>> {
    return this.pool.call(step, args);
  }

  /** `run` as `options` say: its progress heard, its arguments moved rather than copied. */
  runWith<K extends keyof Steps & string>(
    options: RunOptions,
    step: K,
    ...args: Parameters<Steps[K]>
  ): Promise<Awaited<ReturnType<Steps[K]>>> {
    return this.pool.call(step, args, options);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** What runs a pool's steps: the pool itself, or a view of it that follows one job's progress. */
export type StepRunner<Steps extends Record<string, (...args: never[]) => unknown>> = Pick<
  StepPool<Steps>,
  'size' | 'run' | 'runWith'
>;
