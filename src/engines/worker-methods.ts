/**
 * The worker side of a WorkerPool: answers each call with its method's result, moving the
 * buffers of typed arrays instead of copying them (songs are megabytes of samples).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { parentPort } from 'node:worker_threads';
import { buffersOf } from './transferables.js';
import type { ErrorClasses, Order, Reply, StepProgress } from './worker-pool.js';

/** The call a method runs for: where its progress goes, and whether its caller gave up. */
interface Call {
  report: (progress: StepProgress) => void;
  signal: AbortSignal;
}

const calling = new AsyncLocalStorage<Call>();

/** The running calls by id, to stop one when its caller gives up. */
const running = new Map<number, AbortController>();

/** Reports closer than this are not worth a message: a render reports every frame. */
const MESSAGE_STEP = 0.01;

/**
 * Tells the caller of the running method how far it is (0 to 1) and what it is doing. Outside a
 * pool's worker (a method called directly) nobody listens, and it does nothing.
 */
export function reportProgress(fraction: number, stage: string): void {
  calling.getStore()?.report({ fraction, stage });
}

/**
 * Aborted when the caller of the running method gives up (a cancelled or expired task): a method
 * that can stop part way passes it on. Outside a pool's worker there is none.
 */
export function callSignal(): AbortSignal | undefined {
  return calling.getStore()?.signal;
}

function reporterFor(id: number): (progress: StepProgress) => void {
  let told: StepProgress | undefined;
  return (progress) => {
    if (told && told.stage === progress.stage && progress.fraction - told.fraction < MESSAGE_STEP) return;
    told = progress;
    parentPort?.postMessage({ id, progress } satisfies Reply);
  };
}

// Methods take whatever their callers post; each one's own signature is checked where it is defined.
type Method = (...args: never[]) => unknown;

function kindOf(error: unknown, errors: ErrorClasses): string {
  for (const [kind, type] of Object.entries(errors)) if (error instanceof type) return kind;
  return 'Error';
}

export function serveMethods(methods: Record<string, Method>, errors: ErrorClasses = {}): void {
  parentPort?.on('message', async (order: Order) => {
    const { id } = order;
    if ('cancel' in order) {
      running.get(id)?.abort(new Error('the caller gave up'));
      return;
    }
    const stop = new AbortController();
    running.set(id, stop);
    let reply: Reply;
    try {
      const run = methods[order.method];
      if (!run) throw new Error(`no worker method ${order.method}`);
      // A method may be asynchronous (one that drives ffmpeg, say): its result is awaited.
      const call = { report: reporterFor(id), signal: stop.signal };
      const result: unknown = await calling.run(call, () => run(...(order.args as never[])));
      parentPort?.postMessage({ id, result } satisfies Reply, [...buffersOf(result, new Set())]);
      return;
    } catch (error) {
      reply = { id, error: { kind: kindOf(error, errors), message: (error as Error).message } };
    } finally {
      running.delete(id);
    }
    parentPort?.postMessage(reply);
  });
}
