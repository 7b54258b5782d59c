/**
 * Task events: every change of a task (state or progress) is published as its new snapshot, and
 * whoever watches the task (a waiting request, an ndjson stream) receives it. This is the
 * in-process bus; a distributed bus (Redis) implements the same port across nodes.
 */
import { EventEmitter } from 'node:events';

export interface TaskEvent {
  taskId: string;
  state: string;
  terminal: boolean;
  snapshot: Record<string, unknown>;
  /** Once terminal: the final envelope, what a waiting request answers. */
  final?: Record<string, unknown>;
}

export interface TaskEvents {
  publish(event: TaskEvent): void;
  /** Calls `listener` for each event of the task until the returned function is called. */
  subscribe(taskId: string, listener: (event: TaskEvent) => void): () => void;
}

export class MemoryTaskEvents implements TaskEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(event: TaskEvent): void {
    this.emitter.emit(event.taskId, event);
  }

  subscribe(taskId: string, listener: (event: TaskEvent) => void): () => void {
    this.emitter.on(taskId, listener);
    return () => this.emitter.off(taskId, listener);
  }
}
