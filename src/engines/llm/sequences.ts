/**
 * The context sequences of one model, lent to one request at a time. A sequence holds a
 * conversation's evaluated tokens (its KV cache); on 2 cores, two generations at once are no
 * faster than one after the other, so the default is a single sequence and requests queue for it
 * in arrival order. More sequences (`parallel`) let llama.cpp batch several requests in one
 * evaluation, which pays off with more cores. A request keeps its sequence for all its choices,
 * so that the prompt is evaluated once and only the differing tail is redone.
 */
import type { LlamaContextSequence } from 'node-llama-cpp';
import { LocalLlmError } from './errors.js';

interface Waiter {
  resolve: (sequence: LlamaContextSequence) => void;
  reject: (error: unknown) => void;
}

export class SequencePool {
  private readonly idle: LlamaContextSequence[];
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(sequences: readonly LlamaContextSequence[]) {
    this.idle = [...sequences];
  }

  /** A free sequence, waiting in line for one; rejects when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<LlamaContextSequence> {
    if (this.closed) return Promise.reject(new LocalLlmError('closed', 'the local model was closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (sequence) => {
          signal.removeEventListener('abort', onAbort);
          resolve(sequence);
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(sequence: LlamaContextSequence): void {
    const next = this.waiters.shift();
    if (next) next.resolve(sequence);
    else this.idle.push(sequence);
  }

  /** Fails everyone still waiting; sequences in use are released as their requests end. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new LocalLlmError('closed', 'the local model was closed'));
  }
}
