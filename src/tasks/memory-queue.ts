/**
 * The embedded queue (one process, no Redis): jobs wait in memory, and the task's own row is the
 * durable record of its job. A task this process had not finished when it stopped is still live
 * in the database (queued or running); the runner queues every live task again at start and on
 * its sweep (runner.ts), and the row counts the task's runs, so that a task whose runs keep
 * killing the process is failed rather than tried for ever. No job is written, claimed, renewed
 * or deleted in the database: a task costs its own rows only.
 */
import { Pump } from '../store/pump.js';
import type { JobHandler, Queue, QueuedJob } from './queue.js';

export interface MemoryQueueOptions {
  /** How often an idle consumer looks again (nothing arrives unannounced: a backstop). */
  pollMs: number;
  onError: (error: unknown) => void;
}

interface Family {
  ready: string[];
  pump?: Pump<QueuedJob>;
}

export class MemoryQueue implements Queue {
  private readonly families = new Map<string, Family>();
  /** Tasks waiting or running here: enqueueing one of them again changes nothing. */
  private readonly held = new Set<string>();

  constructor(private readonly options: MemoryQueueOptions) {}

  private family(name: string): Family {
    let family = this.families.get(name);
    if (!family) this.families.set(name, (family = { ready: [] }));
    return family;
  }

  /** Nothing to take back: what a dead process left is live in the tasks table. */
  async recover(): Promise<void> {}

  async enqueue(taskId: string, family: string): Promise<void> {
    if (this.held.has(taskId)) return;
    this.held.add(taskId);
    const entry = this.family(family);
    entry.ready.push(taskId);
    entry.pump?.wake();
  }

  consume(name: string, concurrency: number, handler: JobHandler): void {
    const family = this.family(name);
    family.pump = new Pump<QueuedJob>({
      concurrency,
      pollMs: this.options.pollMs,
      // The run's number is the task row's to count (TaskStore.begin): 1 here.
      claim: async (max) => family.ready.splice(0, max).map((taskId) => ({ taskId, attempt: 1 })),
      work: async (job) => {
        try {
          await handler(job);
        } finally {
          this.held.delete(job.taskId);
        }
      },
      key: (job) => job.taskId,
      onError: this.options.onError,
    });
    family.pump.start();
  }

  async close(): Promise<void> {
    await Promise.all([...this.families.values()].map((family) => family.pump?.close()));
  }
}
