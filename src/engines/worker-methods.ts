/**
 * The worker side of a WorkerPool: answers each call with its method's result, moving the
 * buffers of typed arrays instead of copying them (songs are megabytes of samples).
 */
import { parentPort } from 'node:worker_threads';
import type { ErrorClasses, Reply } from './worker-pool.js';

// Methods take whatever their callers post; each one's own signature is checked where it is defined.
type Method = (...args: never[]) => unknown;

function buffersOf(value: unknown, found: Set<ArrayBuffer>): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && value.byteLength === value.buffer.byteLength)
      found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) buffersOf(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) buffersOf(item, found);
  }
  return found;
}

function kindOf(error: unknown, errors: ErrorClasses): string {
  for (const [kind, type] of Object.entries(errors)) if (error instanceof type) return kind;
  return 'Error';
}

export function serveMethods(methods: Record<string, Method>, errors: ErrorClasses = {}): void {
  parentPort?.on('message', async ({ id, method, args }: { id: number; method: string; args: never[] }) => {
    let reply: Reply;
    try {
      const run = methods[method];
      if (!run) throw new Error(`no worker method ${method}`);
      // A method may be asynchronous (one that drives ffmpeg, say): its result is awaited.
      const result: unknown = await run(...args);
      parentPort?.postMessage({ id, result } satisfies Reply, [...buffersOf(result, new Set())]);
      return;
    } catch (error) {
      reply = { id, error: { kind: kindOf(error, errors), message: (error as Error).message } };
    }
    parentPort?.postMessage(reply);
  });
}
