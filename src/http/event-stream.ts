/**
 * Sends a streamed answer: an `EventStream` as server-sent events (one `data:` event per item,
 * then `data: [DONE]`), a `LineStream` as newline-delimited JSON (one line per item, the answer
 * last). A failure after the stream started cannot change the status any more, so it is sent as
 * a last `{"error": …}` item and the stream closes without its end mark: never a silent clean end.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ServiceError } from '../errors.js';

export interface Framing {
  contentType: string;
  frame(item: unknown): string;
  /** Written after the last item of a stream that ended well. */
  end?: string;
}

export const SERVER_SENT_EVENTS: Framing = {
  contentType: 'text/event-stream; charset=utf-8',
  frame: (item) => `data: ${JSON.stringify(item)}\n\n`,
  end: 'data: [DONE]\n\n',
};

export const NDJSON: Framing = {
  contentType: 'application/x-ndjson',
  frame: (item) => `${JSON.stringify(item)}\n`,
};

function errorItem(error: unknown) {
  const known = error instanceof ServiceError ? error : new ServiceError('api_error', 'the stream failed');
  return { error: { code: known.code, type: known.code, message: known.message } };
}

/**
 * Sends the items; `ended(ok, clientLeft)` runs once the stream is over, before the response
 * closes.
 */
export function sendStream(
  reply: FastifyReply,
  items: AsyncIterable<unknown>,
  framing: Framing,
  ended: (ok: boolean, clientLeft: boolean) => Promise<void>,
): FastifyReply {
  const out = new PassThrough();
  reply
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .type(framing.contentType)
    .send(out);
  // The items that come in one turn of the event loop (the events of one upstream read) leave
  // in one write: a socket write per event cost more than everything else a stream does.
  let pending = '';
  const flush = () => {
    if (pending !== '' && !out.destroyed) out.write(pending);
    pending = '';
  };
  const send = (text: string) => {
    if (pending === '') setImmediate(flush);
    pending += text;
  };
  void (async () => {
    let ok = true;
    try {
      for await (const item of items) {
        if (out.destroyed) break;
        send(framing.frame(item));
      }
      if (!out.destroyed && framing.end) send(framing.end);
    } catch (error) {
      ok = false;
      reply.log.warn({ err: error }, 'stream failed after it started');
      if (!out.destroyed) send(framing.frame(errorItem(error)));
    } finally {
      flush();
      await ended(ok, out.destroyed).catch((error: unknown) =>
        reply.log.error({ err: error }, 'stream settlement failed'),
      );
      out.end();
    }
  })();
  return reply;
}
