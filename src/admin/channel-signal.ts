/**
 * Channel state changes told to every node through Redis, where nodes share one: the node that
 * wrote a change publishes, and every node reads the states from the database again at once
 * instead of at its next poll. The poll (channels.ts) stays: it is the embedded store's only path,
 * and it catches a message lost while a connection was down.
 */
import type { Redis } from 'ioredis';

/**
 * Subscribes `subscriber` (a connection of its own) and returns the function that publishes a
 * change; `publisher` should fail fast rather than queue while Redis is away.
 */
export async function openChannelSignal(
  publisher: Redis,
  subscriber: Redis,
  prefix: string,
  onChange: () => void,
  onError: (error: unknown) => void,
): Promise<() => void> {
  const name = `${prefix}:channel-states`;
  subscriber.on('error', onError);
  subscriber.on('message', (channel: string) => {
    if (channel === name) onChange();
  });
  await subscriber.subscribe(name);
  // Requests must not wait on Redis: a lost message leaves the change to the poll.
  return () => void publisher.publish(name, '1').catch(onError);
}
