/**
 * How a synchronous request's work learns that it should stop (its client went away, or a hold it
 * needed was refused). `StopSignal` is the part of `AbortSignal` that such work watches, so an
 * `AbortSignal` is one; `StopSwitch` is one without an `AbortController` behind it.
 *
 * Why not an `AbortController` per request: its signal is an `EventTarget`, and making one cost
 * the chat relay 14 µs of CPU per request under load (of about 150 in all; the same tree with one
 * shared controller, measured turn about), for a signal that almost never fires. Work that must
 * hand a real `AbortSignal` to an API (a worker pool, an engine, `fetch`) makes one that follows
 * the request's own with `abortSignalOf`, and only then.
 */

export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A StopSignal that `stop` fires: its listeners called once, in the order they were added. */
export class StopSwitch implements StopSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    // As on an EventTarget: a listener added twice is called once, one added after the stop never.
    if (!this.aborted && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  stop(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no listener behind either way. */
export function pause(ms: number, signal: StopSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * An `AbortSignal` of its own that aborts when `stop` does, for an API that takes only a real one
 * (or that may leave listeners on what it is given: they go with this one); `release` takes its
 * listener off `stop` once the work is over.
 */
export function abortSignalOf(stop: StopSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const forward = () => controller.abort(stop.reason);
  if (stop.aborted) forward();
  else stop.addEventListener('abort', forward);
  return { signal: controller.signal, release: () => stop.removeEventListener('abort', forward) };
}
