/**
 * `/files/<key>`: the media the service produced. Keys are unguessable, so the URL itself is the
 * permission, as with a signed URL. Supports HEAD and single byte ranges, so players can seek.
 * A store that prefers to serve its blobs itself (an object store with presigned URLs) gets a
 * redirect instead, and the bytes never pass through this process.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Blobs, BlobInfo } from '../store/blobs.js';
import { ServiceError } from '../errors.js';

type Range = { start: number; end: number } | 'unsatisfiable' | undefined;

/** Parses a single `bytes=` range; several ranges are answered with the whole file, as RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): Range {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

function headers(reply: FastifyReply, info: BlobInfo): void {
  reply
    .header('content-type', info.contentType)
    .header('accept-ranges', 'bytes')
    .header('last-modified', info.modifiedAt.toUTCString())
    .header('cache-control', 'public, max-age=31536000, immutable');
}

export function registerFiles(app: FastifyInstance, blobs: Blobs): void {
  app.route<{ Params: { key: string } }>({
    method: ['GET', 'HEAD'],
    url: '/files/:key',
    handler: async (request, reply) => {
      const info = await blobs.stat(request.params.key);
      if (!info) throw new ServiceError('not_found', 'no such file');
      const direct = await blobs.directUrl(request.params.key);
      if (direct) {
        // The presigned URL expires, so the redirect must not outlive it in any cache.
        return reply.code(302).header('location', direct).header('cache-control', 'no-store').send();
      }
      headers(reply, info);
      const range = parseRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${info.size}`);
        return reply
          .code(416)
          .type('application/json')
          .send({
            success: false,
            error: {
              code: 'bad_request',
              message: `range: not satisfiable for a file of ${info.size} bytes`,
            },
            trace_id: request.id,
          });
      }
      const length = range ? range.end - range.start + 1 : info.size;
      reply.header('content-length', String(length));
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      if (request.method === 'HEAD') return reply.send();
      return reply.send(await blobs.read(request.params.key, range));
    },
  });
}
