/**
 * Progress of an engine's work for a job, when the work is made of parts, some run at once (two
 * takes of a song, the items of a result): each part reports how far it is, and the whole is
 * their mean over the parts there will be, placed in a share of the job's progress.
 */
import type { StepPool, StepProgress, StepRunner } from '../engines/worker-pool.js';
import type { Job } from './index.js';

/** A part's report: how far it is (0 to 1) and, when it changed, what it is doing. */
export type PartReport = (fraction: number, stage?: string) => void;

export class Parts {
  private readonly fractions: number[] = [];
  private expected = 0;

  /** The parts' progress fills `from` to `to` of the job's. */
  constructor(
    private readonly job: Pick<Job, 'advance'>,
    private readonly from: number,
    private readonly to: number,
  ) {}

  /** `count` more parts are to come: until they begin, they count as not started. */
  expectMore(count: number): void {
    this.expected = this.fractions.length + count;
  }

  /** A new part, at 0 in `stage`. */
  begin(stage: string): PartReport {
    const index = this.fractions.push(0) - 1;
    let current = stage;
    const report: PartReport = (fraction, at = current) => {
      current = at;
      this.fractions[index] = Math.min(1, Math.max(this.fractions[index]!, fraction));
      const sum = this.fractions.reduce((a, b) => a + b, 0);
      const whole = sum / Math.max(this.expected, this.fractions.length);
      this.job.advance(this.from + (this.to - this.from) * whole, at);
    };
    report(0);
    return report;
  }

  /** `work` as one part of the whole, in `stage` until it is done. */
  async step<T>(stage: string, work: () => Promise<T>): Promise<T> {
    const part = this.begin(stage);
    const result = await work();
    part(1);
    return result;
  }
}

/**
 * A pool's steps as one job runs them: each step is a part, in the stage `stageOf` names until
 * the step itself reports (a song render says when it sings), done when it returns.
 */
export function followed<Steps extends Record<string, (...args: never[]) => unknown>>(
  pool: StepPool<Steps>,
  parts: Parts,
  stageOf: (step: keyof Steps & string) => string,
): StepRunner<Steps> {
  const runWith: StepRunner<Steps>['runWith'] = (options, step, ...args) => {
    const part = parts.begin(stageOf(step));
    const onProgress = (progress: StepProgress) => {
      part(progress.fraction, progress.stage);
      options.onProgress?.(progress);
    };
    return pool.runWith({ ...options, onProgress }, step, ...args).then((result) => {
      part(1);
      return result;
    });
  };
  return { size: pool.size, run: (step, ...args) => runWith({}, step, ...args), runWith };
}
