/**
 * Task events across nodes: every node publishes to one Redis channel and subscribes to it once,
 * then hands each event to its local watchers. A stream opened on one node follows a task that
 * runs on a worker anywhere.
 */
import type { Redis } from 'ioredis';
import { MemoryTaskEvents, type TaskEvent, type TaskEvents } from './events.js';

export class RedisTaskEvents implements TaskEvents {
  private readonly local = new MemoryTaskEvents();
  private readonly channel: string;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:task-events`;
  }

  /** Subscribes before answering, so that no event published afterwards is missed. */
  static async open(publisher: Redis, subscriber: Redis, prefix: string): Promise<RedisTaskEvents> {
    const events = new RedisTaskEvents(publisher, subscriber, prefix);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === events.channel) events.local.publish(JSON.parse(message) as TaskEvent);
    });
    await subscriber.subscribe(events.channel);
    return events;
  }

  publish(event: TaskEvent): void {
    this.publisher.publish(this.channel, JSON.stringify(event)).catch(() => undefined);
  }

  subscribe(taskId: string, listener: (event: TaskEvent) => void): () => void {
    return this.local.subscribe(taskId, listener);
  }
}
