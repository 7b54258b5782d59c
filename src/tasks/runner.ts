/**
 * Runs tasks: takes jobs from the queue, moves each task to running, hands the engine its job
 * (input, deadline, progress, files, guarded fetching) and moves the task to its terminal state
 * with what came back. Every change is published to the task's watchers.
 */
import type { Logger } from 'pino';
import { OPERATIONS, operationAt } from '../contract/table.js';
import { ServiceError } from '../errors.js';
import type { Job, Providers } from '../providers/index.js';
import { fetchInput, type MediaSources } from '../net/media.js';
import type { Queue, QueuedJob } from './queue.js';
import type { TaskEvents } from './events.js';
import { ProgressReports } from './progress.js';
import { eventOf, type Outcome, type TaskRow, type TaskStore } from './store.js';

/** A job whose worker died this many times is failed rather than tried again. */
export const MAX_ATTEMPTS = 3;
const SWEEP_MS = 60_000;

export const TASK_FAMILIES = [...new Set(OPERATIONS.filter((o) => o.kind === 'task').map((o) => o.family))];

export interface RunnerOptions {
  concurrency: (family: string) => number;
  publicBaseUrl: string;
}

export class TaskRunner {
  constructor(
    private readonly store: TaskStore,
    private readonly queue: Queue,
    private readonly providers: Providers,
    private readonly events: TaskEvents,
    private readonly media: MediaSources,
    private readonly log: Logger,
    private readonly options: RunnerOptions,
    /** Called after a task reached a terminal state (callbacks wake up). */
    private readonly onFinished: (task: TaskRow) => void,
  ) {}

  private sweeper: NodeJS.Timeout | undefined;
  /** The engines running here, to stop one whose task an operator cancelled. */
  private readonly running = new Map<string, AbortController>();

  /** Stops the engine running `taskId` in this process, if one is; its task has already ended. */
  abort(taskId: string): void {
    this.running.get(taskId)?.abort();
  }

  /**
   * Re-enqueues every live task (a restart left them), then starts the workers, and repeats the
   * re-enqueueing every `SWEEP_MS`: a task whose job was lost (a crash between its commit and its
   * enqueue, a queue that dropped it) is picked up again. Enqueueing is idempotent per task.
   */
  async start(): Promise<void> {
    await this.requeueLive();
    for (const family of TASK_FAMILIES) {
      this.queue.consume(family, this.options.concurrency(family), (job) => this.run(job));
    }
    this.sweeper = setInterval(() => {
      this.requeueLive().catch((error: unknown) => this.log.error({ err: error }, 'task sweep failed'));
    }, SWEEP_MS).unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private async requeueLive(): Promise<void> {
    for (const task of await this.store.live()) await this.queue.enqueue(task.id, task.family);
  }

  publish(task: TaskRow): void {
    this.events.publish(eventOf(task));
  }

  private async finish(
    task: TaskRow,
    state: 'succeeded' | 'failed' | 'expired',
    outcome: Outcome,
  ): Promise<void> {
    const finished = await this.store.finish(task.id, state, outcome);
    if (!finished) return;
    this.publish(finished);
    this.onFinished(finished);
  }

  private async run(queued: QueuedJob): Promise<void> {
    const task = await this.store.begin(queued.taskId);
    if (!task) return;
    this.publish(task);
    const deadline = Number(task.deadline_at);
    // The queue's count of runs (Redis) or the row's own (embedded), whichever knows of more.
    if (Math.max(queued.attempt, Number(task.runs)) > MAX_ATTEMPTS) {
      return this.finish(task, 'failed', {
        error: {
          code: 'api_error',
          message: `the task's worker stopped ${MAX_ATTEMPTS} times; it was not run again`,
        },
      });
    }
    if (Date.now() >= deadline) return this.finish(task, 'expired', { error: expiredError(task) });
    const operation = operationAt(task.operation);
    let engine: (job: Job) => Promise<unknown>;
    try {
      if (!operation) throw new ServiceError('busy', `${task.operation} is not served by this version`);
      engine = this.providers.task(operation);
    } catch (error) {
      return this.finish(task, 'failed', { error: errorOf(error) });
    }
    // One signal for the deadline and for an operator's cancellation (`abort`).
    const stop = new AbortController();
    const deadlineSignal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    const atDeadline = () => stop.abort(deadlineSignal.reason);
    deadlineSignal.addEventListener('abort', atDeadline, { once: true });
    const signal = stop.signal;
    const reports = this.progressReports(task);
    const job = this.jobFor(task, queued, operation, deadline, signal, reports);
    this.running.set(task.id, stop);
    const outcome = await this.outcomeOf(task, () => engine(job), signal).finally(() => {
      deadlineSignal.removeEventListener('abort', atDeadline);
      this.running.delete(task.id);
    });
    // A progress line published after the terminal one would reach no watcher, or out of order.
    await reports.close();
    return this.finish(task, outcome.state, outcome);
  }

  /** What the engine's work comes to: its data, its error, or expiry once the deadline passed. */
  private async outcomeOf(
    task: TaskRow,
    work: () => Promise<unknown>,
    signal: AbortSignal,
  ): Promise<Outcome & { state: 'succeeded' | 'failed' | 'expired' }> {
    try {
      const data = await work();
      if (signal.aborted) return { state: 'expired', error: expiredError(task) };
      return { state: 'succeeded', data };
    } catch (error) {
      if (signal.aborted) return { state: 'expired', error: expiredError(task) };
      if (!(error instanceof ServiceError)) {
        this.log.error({ err: error, trace_id: task.trace_id, task_id: task.id }, 'engine fault');
      }
      return { state: 'failed', error: errorOf(error, task.trace_id) };
    }
  }

  private progressReports(task: TaskRow): ProgressReports {
    return new ProgressReports(
      async (progress) => {
        const running = await this.store.advance(task.id, progress);
        if (running) this.publish(running);
      },
      (error) => this.log.warn({ err: error, task_id: task.id }, 'progress report not kept'),
    );
  }

  private jobFor(
    task: TaskRow,
    queued: QueuedJob,
    operation: Job['operation'],
    deadline: number,
    signal: AbortSignal,
    reports: ProgressReports,
  ): Job {
    return {
      taskId: task.id,
      tokenId: task.token_id,
      traceId: task.trace_id,
      operation,
      input: JSON.parse(task.input ?? '{}') as Record<string, unknown>,
      attempt: queued.attempt,
      deadline,
      signal,
      progress: (data) =>
        reports.inLine(async () => {
          const running = await this.store.progress(task.id, data);
          if (running) this.publish(running);
        }),
      advance: (fraction, stage) => reports.report(fraction, stage),
      saveFile: async (data, extension) =>
        `${this.options.publicBaseUrl}/files/${await this.media.blobs.put(data, extension)}`,
      fetchInput: (field, url, maxBytes) => fetchInput(this.media, field, url, maxBytes),
    };
  }
}

function expiredError(task: TaskRow): Outcome['error'] {
  const seconds = Math.round((Number(task.deadline_at) - Number(task.created_at)) / 1000);
  return { code: 'timeout', message: `the task did not finish within its ${seconds} s deadline` };
}

function errorOf(error: unknown, traceId?: string): NonNullable<Outcome['error']> {
  if (error instanceof ServiceError) return { code: error.code, message: error.message };
  return { code: 'api_error', message: `internal error; quote trace_id ${traceId ?? ''} when reporting it` };
}
