/**
 * The queue port: jobs that run tasks. `enqueue` is idempotent per task id, so a task can be
 * re-enqueued after a crash without running twice at once. `consume` runs a handler for each
 * job of a family, at most `concurrency` at a time; a job whose worker dies (its lease lapses)
 * is handed out again with a higher `attempt`.
 *
 * The embedded adapter keeps jobs in memory, the tasks table behind them (`MemoryQueue`); a
 * distributed adapter keeps them in Redis. Callers do not know which.
 */

export interface QueuedJob {
  taskId: string;
  /** 1 for the first run; more when an earlier worker died holding the job. */
  attempt: number;
}

export type JobHandler = (job: QueuedJob) => Promise<void>;

export interface Queue {
  /**
   * Takes back the jobs that dead processes left, before consuming: the embedded queue lapses
   * every lease (no other process can hold one); a shared queue relies on lapsed leases alone.
   */
  recover(): Promise<void>;
  enqueue(taskId: string, family: string): Promise<void>;
  consume(family: string, concurrency: number, handler: JobHandler): void;
  /** Stops taking jobs and waits for the running handlers. */
  close(): Promise<void>;
}
