/**
 * A body refused for its size is answered 413 before it has all arrived. Closing the connection
 * then (as Fastify asks, since the rest of the body would be read as a next request) resets a
 * client that is still sending: Node's fetch and the OpenAI SDK report EPIPE rather than the 413,
 * and curl alone reads it. So the rest of the body is read and thrown away first, and the answer
 * goes out once the client has sent it all and is listening: a lingering close, bounded in bytes
 * and in time so that a client cannot hold the connection open by sending for ever.
 */
import type { IncomingMessage } from 'node:http';

/** Bytes read and thrown away at most, beyond which the connection is closed without reading on. */
export const DRAIN_BYTES = 64 * 1024 * 1024;
/** How long the rest of a body is waited for. */
export const DRAIN_MS = 10_000;

/** Resolves once the rest of the request's body has been read, or once either bound is reached. */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  const declared = Number(raw.headers['content-length']);
  if (raw.complete || raw.destroyed || declared > DRAIN_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', count).off('end', finish).off('error', finish).off('close', finish);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MS);
    raw.on('data', count).once('end', finish).once('error', finish).once('close', finish);
    raw.resume();
  });
}
