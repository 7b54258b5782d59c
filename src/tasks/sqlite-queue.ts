/**
 * The embedded queue: a job table with leases. A consumer claims due jobs in one statement,
 * renews the leases of the jobs it runs (heartbeat), and deletes a job when its handler returns.
 * A lease that lapses means the worker died: the job is claimed again. At start every lease is
 * lapsed at once, since in the embedded mode no other process can hold one.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { JobHandler, Queue, QueuedJob } from './queue.js';

export interface SqliteQueueOptions {
  leaseMs: number;
  /** How often an idle consumer looks for lapsed leases and jobs enqueued elsewhere. */
  pollMs: number;
  onError: (error: unknown) => void;
}

export class SqliteQueue implements Queue {
  private readonly wakeups = new EventEmitter();
  private readonly consumers: Promise<void>[] = [];
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly options: SqliteQueueOptions,
  ) {
    this.wakeups.setMaxListeners(0);
  }

  /** Lapses every lease: the process that held them is gone. */
  async recover(): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ state: 'ready', lease_until: null })
      .where('state', '=', 'leased')
      .execute();
  }

  async enqueue(taskId: string, family: string): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({
        task_id: taskId,
        family,
        state: 'ready',
        run_at: Date.now(),
        lease_until: null,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.column('task_id').doNothing())
      .execute();
    this.wakeups.emit(family);
  }

  consume(family: string, concurrency: number, handler: JobHandler): void {
    this.consumers.push(this.loop(family, concurrency, handler));
  }

  private async claim(family: string, max: number): Promise<QueuedJob[]> {
    const now = Date.now();
    const due = this.db
      .selectFrom('jobs')
      .select('task_id')
      .where('family', '=', family)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'ready'), eb('run_at', '<=', now)]),
          eb.and([eb('state', '=', 'leased'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(max);
    const rows = await this.db
      .updateTable('jobs')
      .set({ state: 'leased', lease_until: now + this.options.leaseMs, attempts: sql`attempts + 1` })
      .where('task_id', 'in', due)
      .returning(['task_id', 'attempts'])
      .execute();
    return rows.map((r) => ({ taskId: r.task_id, attempt: Number(r.attempts) }));
  }

  private async loop(family: string, concurrency: number, handler: JobHandler): Promise<void> {
    const running = new Map<string, Promise<void>>();
    let wake: () => void = () => {};
    const onWake = () => wake();
    this.wakeups.on(family, onWake);
    const heartbeat = setInterval(() => {
      if (running.size === 0) return;
      this.db
        .updateTable('jobs')
        .set({ lease_until: Date.now() + this.options.leaseMs })
        .where('task_id', 'in', [...running.keys()])
        .execute()
        .catch(this.options.onError);
    }, this.options.leaseMs / 3);
    try {
      while (!this.closed) {
        const sleep = new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, this.options.pollMs).unref();
        });
        let claimed: QueuedJob[] = [];
        if (running.size < concurrency) {
          claimed = await this.claim(family, concurrency - running.size).catch((error: unknown) => {
            this.options.onError(error);
            return [];
          });
        }
        for (const job of claimed) {
          const run = handler(job)
            .then(() => this.db.deleteFrom('jobs').where('task_id', '=', job.taskId).execute())
            .catch(this.options.onError)
            .finally(() => {
              running.delete(job.taskId);
              wake();
            });
          running.set(
            job.taskId,
            run.then(() => undefined),
          );
        }
        // A full batch may mean more are due: look again at once.
        if (claimed.length === 0 || running.size >= concurrency) await sleep;
      }
      await Promise.all(running.values());
    } finally {
      clearInterval(heartbeat);
      this.wakeups.off(family, onWake);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeups.eventNames().forEach((name) => this.wakeups.emit(name));
    await Promise.all(this.consumers);
  }
}
