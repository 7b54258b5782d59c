/**
 * An upstream answer's body as undici's dispatcher hands it over, chunk by chunk: read whole
 * (`text`, `json`) or as it arrives (`for await`). undici's `request` wraps every answer in a
 * Node stream whose events, and a promise per chunk for an async reader, cost more than a relay's
 * own work on a short answer; this holds the chunks in an array until they are read.
 */
import type { Dispatcher } from 'undici';

/** Unread bytes of a body being read as it arrives, above which the upstream is paused. */
const HIGH_WATER = 64 * 1024;

export class UpstreamBody implements AsyncIterable<Buffer> {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  /** A reader takes chunks as they come: pause the upstream rather than gather without end. */
  private streaming = false;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** From the dispatcher: a chunk arrived. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.streaming && this.buffered >= HIGH_WATER && !this.controller.paused) this.controller.pause();
    this.notify();
  }

  /** From the dispatcher: the body is complete. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** From the dispatcher: the body broke off; what arrived before is still read first. */
  fail(error: Error): void {
    if (this.ended) return;
    this.failure = error;
    this.ended = true;
    this.notify();
  }

  /** Stops the upstream sending (the reader left); nothing once the body is complete. */
  destroy(): void {
    if (this.ended) return;
    const reason = new Error('the body was left unread');
    this.fail(reason);
    this.controller.abort(reason);
  }

  async text(): Promise<string> {
    while (!this.ended) await this.next();
    if (this.failure) throw this.failure;
    const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    return whole.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** The chunks as they arrive: those that came in one turn together. Leaving early stops the upstream. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    this.streaming = true;
    try {
      for (;;) {
        if (this.chunks.length > 0) {
          const chunk = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
          this.chunks = [];
          this.buffered = 0;
          if (this.controller.paused) this.controller.resume();
          yield chunk;
        } else if (this.failure) throw this.failure;
        else if (this.ended) return;
        else await this.next();
      }
    } finally {
      this.destroy();
    }
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
