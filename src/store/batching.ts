/**
 * Work gathered into batches: what arrives in the same turn of the event loop, or while a batch
 * is being written, goes into the next batch, so that one write (one transaction, one commit)
 * serves many callers. Shared by the group commit of small transactions (group-commit.ts) and the
 * credit batches of synchronous requests (accounts/credit-batches/). `write` answers each item of
 * its batch itself and never throws.
 */
export class Batching<T> {
  private queue: T[] = [];
  private writing = false;

  constructor(private readonly write: (batch: T[]) => Promise<void>) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.writing) {
      this.writing = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.write(this.queue.splice(0));
    this.writing = false;
  }
}
