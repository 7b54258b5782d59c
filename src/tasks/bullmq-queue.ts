/**
 * The distributed queue: one BullMQ queue per family in Redis. The job id is the task id, so
 * enqueueing a live task again is a no-op. A worker that dies leaves its job stalled; BullMQ
 * hands it to another worker, and the higher `attempt` lets the runner give up after a few.
 */
import { Queue as BullQueue, Worker, type ConnectionOptions } from 'bullmq';
import type { JobHandler, Queue } from './queue.js';

export interface BullmqQueueOptions {
  connection: ConnectionOptions;
  prefix: string;
  leaseMs: number;
  onError: (error: unknown) => void;
}

interface TaskJob {
  taskId: string;
}

/** Stalls are counted by the runner (MAX_ATTEMPTS); BullMQ must not fail the job on its own. */
const STALLS_TOLERATED = 1000;
const RETRIES_ON_ERROR = 8;

export class BullmqQueue implements Queue {
  private readonly queues = new Map<string, BullQueue<TaskJob>>();
  private readonly workers: Worker<TaskJob>[] = [];

  constructor(private readonly options: BullmqQueueOptions) {}

  private queue(family: string): BullQueue<TaskJob> {
    let queue = this.queues.get(family);
    if (!queue) {
      queue = new BullQueue<TaskJob>(`tasks-${family}`, {
        connection: this.options.connection,
        prefix: this.options.prefix,
      });
      queue.on('error', this.options.onError);
      this.queues.set(family, queue);
    }
    return queue;
  }

  async recover(): Promise<void> {
    // Stalled jobs are taken back by BullMQ's own stall check.
  }

  async enqueue(taskId: string, family: string): Promise<void> {
    await this.queue(family).add(
      'run',
      { taskId },
      {
        jobId: taskId,
        removeOnComplete: true,
        removeOnFail: true,
        // A handler that threw (the database was failing over) runs again later; the runner
        // fails the task itself once it has started too often.
        attempts: RETRIES_ON_ERROR,
        backoff: { type: 'exponential', delay: 1000 },
      },
    );
  }

  consume(family: string, concurrency: number, handler: JobHandler): void {
    const worker = new Worker<TaskJob>(
      `tasks-${family}`,
      (job) => handler({ taskId: job.data.taskId, attempt: Math.max(1, job.attemptsStarted) }),
      {
        connection: this.options.connection,
        prefix: this.options.prefix,
        concurrency,
        lockDuration: this.options.leaseMs,
        stalledInterval: Math.max(1000, Math.floor(this.options.leaseMs / 2)),
        maxStalledCount: STALLS_TOLERATED,
      },
    );
    worker.on('error', this.options.onError);
    this.workers.push(worker);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
