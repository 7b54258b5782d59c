/**
 * Changes told to every node through Redis, where nodes share one: the node that wrote a change
 * publishes on the change's name, and every node acts on it at once (reads the channel states
 * again, forgets its cached tokens) instead of at its next poll of the database. The polls
 * (admin/channels.ts, accounts/tokens.ts) stay: they are the embedded store's only path, and they
 * catch a message lost while a connection was down.
 */
import type { Redis } from 'ioredis';

/**
 * Subscribes `subscriber` (a connection of its own, which may carry other names too) to `name`
 * and returns the function that publishes a change; `publisher` should fail fast rather than
 * queue while Redis is away.
 */
export async function openChangeSignal(
  publisher: Redis,
  subscriber: Redis,
  name: string,
  onChange: () => void,
  onError: (error: unknown) => void,
): Promise<() => void> {
  subscriber.on('message', (channel: string) => {
    if (channel === name) onChange();
  });
  await subscriber.subscribe(name);
  // Requests must not wait on Redis: a lost message leaves the change to the poll.
  return () => void publisher.publish(name, '1').catch(onError);
}
