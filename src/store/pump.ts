/**
 * A claim-and-run loop over durable work (jobs, callback deliveries): claims as many items as
 * there are free slots, runs each, and sleeps until an item finishes, `wake` is called (new work
 * in this process) or `pollMs` passes (work from elsewhere, lapsed leases, due retries).
 */
export interface PumpOptions<T> {
  concurrency: number;
  pollMs: number;
  /** Claims up to `max` items; each claimed item is leased to this pump. */
  claim(max: number): Promise<T[]>;
  work(item: T): Promise<void>;
  key(item: T): string;
  onError(error: unknown): void;
}

export class Pump<T> {
  private readonly running = new Map<string, Promise<void>>();
  private wakeUp: () => void = () => {};
  private closed = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: PumpOptions<T>) {}

  /** Keys of the items being worked on now (for lease renewal). */
  keys(): string[] {
    return [...this.running.keys()];
  }

  start(): void {
    this.loop ??= this.run();
  }

  wake(): void {
    this.wakeUp();
  }

  /** Stops claiming and waits for the items in hand. */
  async close(): Promise<void> {
    this.closed = true;
    this.wakeUp();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { concurrency, pollMs } = this.options;
    while (!this.closed) {
      const sleep = new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        setTimeout(resolve, pollMs).unref();
      });
      const free = concurrency - this.running.size;
      const claimed = free > 0 ? await this.options.claim(free).catch(this.failed) : [];
      for (const item of claimed) {
        const key = this.options.key(item);
        // Our own lease lapsed (a missed heartbeat) while we still run it: keep the one run.
        if (this.running.has(key)) continue;
        const done = this.options
          .work(item)
          .catch(this.failed)
          .finally(() => {
            this.running.delete(key);
            this.wakeUp();
          });
        this.running.set(
          key,
          done.then(() => undefined),
        );
      }
      // A full batch may mean more are due: look again at once.
      if (claimed.length === 0 || this.running.size >= concurrency) await sleep;
      // Wakes that come together (items finishing, work arriving) make one claim, not one each.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(this.running.values());
  }

  private readonly failed = (error: unknown): [] => {
    this.options.onError(error);
    return [];
  };
}
