/**
 * An engine's progress reports for one running task, thinned out before they are written and
 * published: a report goes out when it is at least `STEP` further than the last one sent, or
 * `INTERVAL_MS` after it; one held back goes out when that interval is over (so a stage that
 * starts just after a report is still seen). Reports never go back, and stay below 1, which only
 * a succeeded task reaches. Writes run one after another, and the task's other writes (the
 * engine's progress data) join the same line, so watchers see every snapshot in order.
 */
import type { Progress } from './shapes.js';

const INTERVAL_MS = 250;
const STEP = 0.05;
/** The most a running task shows. */
const BELOW_DONE = 0.99;

export class ProgressReports {
  /** The furthest report so far (sent or held back). */
  private latest: Progress = { fraction: 0, stage: '' };
  private sent: Progress = { fraction: 0, stage: '' };
  private sentAt = 0;
  private held: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly write: (progress: Progress) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  report(fraction: number, stage: string): void {
    if (this.closed || !Number.isFinite(fraction)) return;
    const next = {
      fraction: Math.round(Math.min(BELOW_DONE, Math.max(this.latest.fraction, fraction)) * 1000) / 1000,
      stage,
    };
    if (next.fraction === this.latest.fraction && next.stage === this.latest.stage) return;
    this.latest = next;
    const wait = this.sentAt + INTERVAL_MS - Date.now();
    if (next.fraction - this.sent.fraction >= STEP || wait <= 0) this.send();
    else this.held ??= setTimeout(() => this.send(), wait).unref();
  }

  /**
   * Runs `work` after the writes under way and before any later one. Two writes of one task that
   * ran side by side could publish their snapshots in the other order, a fraction going back.
   */
  inLine<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work);
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Stops reporting and waits for the writes under way: the task's terminal move comes after them. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.held);
    await this.writing;
  }

  private send(): void {
    clearTimeout(this.held);
    this.held = undefined;
    if (this.closed) return;
    const progress = this.latest;
    this.sent = progress;
    this.sentAt = Date.now();
    this.writing = this.writing.then(() => this.write(progress)).catch(this.onError);
  }
}
