/**
 * Sends an `EventStream` as server-sent events: one `data:` event per item, then `data: [DONE]`.
 * A failure after the stream started cannot change the status any more, so it is sent as a last
 * `data: {"error": …}` event and the stream closes without `[DONE]`: never a silent clean end.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { EventStream } from '../providers/index.js';
import { ServiceError } from '../errors.js';

function errorEvent(error: unknown): string {
  const known = error instanceof ServiceError ? error : new ServiceError('api_error', 'the stream failed');
  return JSON.stringify({ error: { code: known.code, type: known.code, message: known.message } });
}

/**
 * Sends the events; `ended(ok, clientLeft)` runs once the stream is over, before the response
 * closes.
 */
export function sendEvents(
  reply: FastifyReply,
  stream: EventStream,
  ended: (ok: boolean, clientLeft: boolean) => Promise<void>,
): FastifyReply {
  const out = new PassThrough();
  reply
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .type('text/event-stream; charset=utf-8')
    .send(out);
  void (async () => {
    let ok = true;
    try {
      for await (const event of stream.events) {
        if (out.destroyed) break;
        out.write(`data: ${JSON.stringify(event)}\n\n`);
      }
      if (!out.destroyed) out.write('data: [DONE]\n\n');
    } catch (error) {
      ok = false;
      reply.log.warn({ err: error }, 'stream failed after it started');
      if (!out.destroyed) out.write(`data: ${errorEvent(error)}\n\n`);
    } finally {
      await ended(ok, out.destroyed).catch((error: unknown) =>
        reply.log.error({ err: error }, 'stream settlement failed'),
      );
      out.end();
    }
  })();
  return reply;
}
