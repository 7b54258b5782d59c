/**
 * A one-reader queue that turns node-llama-cpp's callbacks (text as it is generated) into an
 * async iterable. The producer never waits: a generation cannot be paused between tokens, and
 * what it produces is small, so a slow reader only lets a few chunks pile up.
 */
export class ChunkQueue<T extends object> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.end();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
