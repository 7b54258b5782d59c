/**
 * The ways to watch a task other than polling: wait for its terminal state, or stream every
 * snapshot as a line of ndjson. Both subscribe first and read the task second, so no change
 * can slip between the two. A watcher that leaves only stops watching; the task goes on.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { TaskEvent, TaskEvents } from './events.js';
import { eventOf, type TaskRow, type TaskStore } from './store.js';
import { isTerminal } from './states.js';

const RECHECK_MS = 5000;

export class TaskWatch {
  constructor(
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
  ) {}

  /** The task's terminal event, or undefined when `timeoutMs` passes first. */
  terminal(taskId: string, timeoutMs: number): Promise<TaskEvent | undefined> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (event: TaskEvent | undefined) => {
        if (settled) return;
        settled = true;
        unsubscribe();
        clearTimeout(timer);
        resolve(event);
      };
      const unsubscribe = this.events.subscribe(taskId, (event) => event.terminal && finish(event));
      // A lost event (a pub/sub reconnection) must not turn a finished task into a timeout.
      const timer = setTimeout(() => {
        this.store
          .get(taskId)
          .then((row) => finish(row && isTerminal(row.state) ? eventOf(row) : undefined), reject);
      }, timeoutMs);
      this.store.get(taskId).then((row) => {
        if (row) {
          const event = eventOf(row);
          if (event.terminal) finish(event);
        }
      }, reject);
    });
  }

  /**
   * Every snapshot of `task` from now on, one JSON line each; ends after the terminal one. The row
   * as the caller holds it (the one its submission wrote) is written first: a worker may take the
   * task up before this subscribes, and the stream still begins with the task as submitted. A
   * snapshot the same as the line before it is not written again.
   */
  stream(task: TaskRow): Readable {
    const taskId = task.id;
    const out = new PassThrough();
    let heard = false;
    let last = '';
    const write = (event: TaskEvent) => {
      if (out.writableEnded) return;
      const line = `${JSON.stringify(event.snapshot)}\n`;
      if (line !== last) out.write(line);
      last = line;
      if (event.terminal) {
        unsubscribe();
        out.end();
      }
    };
    const unsubscribe = this.events.subscribe(taskId, (event) => {
      heard = true;
      write(event);
    });
    write(eventOf(task));
    // Looks at the store now and then, so that a lost terminal event still ends the stream.
    const check = setInterval(() => {
      this.store.get(taskId).then(
        (row) => row && isTerminal(row.state) && write(eventOf(row)),
        () => undefined,
      );
    }, RECHECK_MS).unref();
    out.once('close', () => {
      clearInterval(check);
      unsubscribe();
    });
    this.store.get(taskId).then(
      (row) => {
        // An event that came first is at least as new as what the read saw.
        if (row && !heard) write(eventOf(row));
      },
      (error: unknown) => out.destroy(error as Error),
    );
    return out;
  }
}
