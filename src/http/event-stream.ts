/**
 * Sends a streamed answer: an `EventStream` as server-sent events (one `data:` event per item,
 * then `data: [DONE]`), a `LineStream` as newline-delimited JSON (one line per item, the answer
 * last). A failure after the stream started cannot change the status any more, so it is sent as
 * a last `{"error": …}` item and the stream closes without its end mark: never a silent clean end.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ServiceError } from '../errors.js';
import { textReceived } from '../providers/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Rewrites the text of a stream before it is written (origin paths name models their way). */
    streamText?: (text: string) => string;
  }
}

export interface Framing {
  contentType: string;
  frame(item: unknown): string;
  /** Written after the last item of a stream that ended well. */
  end?: string;
}

export const SERVER_SENT_EVENTS: Framing = {
  contentType: 'text/event-stream; charset=utf-8',
  frame: (item) => `data: ${textReceived(item) ?? JSON.stringify(item)}\n\n`,
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
 *
 * Written straight to the socket's response (Fastify's stream sending pipes a stream of ours into
 * it and watches both ends, which cost more than the relaying itself), and with as few writes as
 * the events allow: the items of one turn of the event loop (the events of one upstream read)
 * leave in one write, and what is left when the items end leaves with the end of the response,
 * after `ended` (the charge is written before the client sees the stream end). A stream whose
 * events all came in one read is then one write: headers, events and end.
 */
export function sendStream(
  reply: FastifyReply,
  items: AsyncIterable<unknown>,
  framing: Framing,
  ended: (ok: boolean, clientLeft: boolean) => Promise<void>,
): FastifyReply {
  reply.hijack();
  const res = reply.raw;
  // The headers hooks set (the trace id) go out with the stream's own.
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': framing.contentType,
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  let left = false;
  res.once('close', () => (left = !res.writableFinished));
  const rewrite = reply.request.streamText;
  let pending = '';
  let finishing = false;
  const flush = () => {
    if (finishing || pending === '' || left) return;
    res.write(pending);
    pending = '';
  };
  const send = (text: string) => {
    if (pending === '') setImmediate(flush);
    pending += rewrite ? rewrite(text) : text;
  };
  void (async () => {
    let ok = true;
    try {
      for await (const item of items) {
        if (left) break;
        send(framing.frame(item));
        // A client reading slower than the upstream writes: wait for it rather than buffer.
        if (res.writableNeedDrain) await drained(res);
      }
      if (framing.end) send(framing.end);
    } catch (error) {
      ok = false;
      reply.log.warn({ err: error }, 'stream failed after it started');
      send(framing.frame(errorItem(error)));
    } finally {
      finishing = true;
      await ended(ok, left).catch((error: unknown) =>
        reply.log.error({ err: error }, 'stream settlement failed'),
      );
      if (left) res.destroy();
      else res.end(pending);
    }
  })();
  return reply;
}

/** Resolves once `res` can take more, or has closed. */
function drained(res: FastifyReply['raw']): Promise<void> {
  return new Promise((done) => {
    const go = () => {
      res.off('drain', go);
      res.off('close', go);
      done();
    };
    res.on('drain', go);
    res.on('close', go);
  });
}
