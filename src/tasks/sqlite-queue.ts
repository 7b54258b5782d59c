/**
 * The database queue (embedded mode, one process): a job table with leases. A consumer (a `Pump` per family) claims due jobs
 * in one statement, renews the leases of the jobs it runs (heartbeat), and deletes a job when its
 * handler returns.
 * A lease that lapses means the worker died: the job is claimed again. At start every lease is
 * lapsed at once, since in the embedded mode no other process can hold one.
 */
import { EventEmitter } from 'node:events';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../store/tables.js';
import type { Db } from '../store/database.js';
import type { JobHandler, Queue, QueuedJob } from './queue.js';
import { Pump } from './pump.js';

export interface SqliteQueueOptions {
  leaseMs: number;
  /** How often an idle consumer looks for lapsed leases and jobs enqueued elsewhere. */
  pollMs: number;
  onError: (error: unknown) => void;
}

export class SqliteQueue implements Queue {
  private readonly wakeups = new EventEmitter();
  private readonly pumps: { pump: Pump<QueuedJob>; heartbeat: NodeJS.Timeout }[] = [];

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
    await this.insertJob(this.db, taskId, family);
    this.wakeups.emit(family);
  }

  readonly inTaskDatabase = {
    enqueue: (trx: Kysely<Database>, taskId: string, family: string) => this.insertJob(trx, taskId, family),
    announce: (family: string) => void this.wakeups.emit(family),
    complete: async (trx: Kysely<Database>, taskId: string) => {
      await trx.deleteFrom('jobs').where('task_id', '=', taskId).execute();
    },
  };

  private async insertJob(db: Kysely<Database>, taskId: string, family: string): Promise<void> {
    await db
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
  }

  consume(family: string, concurrency: number, handler: JobHandler): void {
    const pump = new Pump<QueuedJob>({
      concurrency,
      pollMs: this.options.pollMs,
      claim: (max) => this.claim(family, max),
      work: async (job) => {
        await handler(job);
        await this.db.deleteFrom('jobs').where('task_id', '=', job.taskId).execute();
      },
      key: (job) => job.taskId,
      onError: this.options.onError,
    });
    // Renews the leases of the jobs in hand; a worker that stops renewing has died.
    const heartbeat = setInterval(() => {
      const held = pump.keys();
      if (held.length === 0) return;
      this.db
        .updateTable('jobs')
        .set({ lease_until: Date.now() + this.options.leaseMs })
        .where('task_id', 'in', held)
        .execute()
        .catch(this.options.onError);
    }, this.options.leaseMs / 3);
    this.wakeups.on(family, () => pump.wake());
    this.pumps.push({ pump, heartbeat });
    pump.start();
  }

  private async claim(family: string, max: number): Promise<QueuedJob[]> {
    const now = Date.now();
    const isDue = (eb: ExpressionBuilder<Database, 'jobs'>) =>
      eb.or([
        eb.and([eb('state', '=', 'ready'), eb('run_at', '<=', now)]),
        eb.and([eb('state', '=', 'leased'), eb('lease_until', '<', now)]),
      ]);
    const due = this.db
      .selectFrom('jobs')
      .select('task_id')
      .where('family', '=', family)
      .where(isDue)
      .orderBy('run_at')
      .limit(max);
    // The condition is checked again on the row being updated: on PostgreSQL a concurrent claimer
    // that took the row first makes it fail here instead of both claiming it.
    const rows = await this.db
      .updateTable('jobs')
      .set({ state: 'leased', lease_until: now + this.options.leaseMs, attempts: sql`attempts + 1` })
      .where('task_id', 'in', due)
      .where(isDue)
      .returning(['task_id', 'attempts'])
      .execute();
    return rows.map((r) => ({ taskId: r.task_id, attempt: Number(r.attempts) }));
  }

  async close(): Promise<void> {
    await Promise.all(this.pumps.map(({ pump }) => pump.close()));
    for (const { heartbeat } of this.pumps) clearInterval(heartbeat);
    this.wakeups.removeAllListeners();
  }
}
