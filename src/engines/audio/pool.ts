/**
 * The music engine's steps on worker threads: composing, separating and mastering take from
 * hundreds of milliseconds to seconds of CPU, which would otherwise stall the server's requests.
 */
import { scriptNextTo, WorkerPool } from '../worker-pool.js';
import type * as jobs from './jobs.js';

type Jobs = typeof jobs;

export class AudioPool {
  private readonly pool: WorkerPool;

  /** `size`: steps at a time, each on its own thread. */
  constructor(readonly size: number) {
    this.pool = new WorkerPool(scriptNextTo(import.meta.url, 'audio-worker'), size);
  }

  run<K extends keyof Jobs>(step: K, ...args: Parameters<Jobs[K]>): Promise<ReturnType<Jobs[K]>> {
    return this.pool.call(step, ...args);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
