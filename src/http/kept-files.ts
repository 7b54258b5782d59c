/**
 * `/search/files/<key>/<path>`: the files the local search index keeps, which its results link
 * to. A file opens only under its link's own key, so only a link that a search gave out opens
 * one; the path is looked up in the index, never on the disk, so `..` reaches nothing. The
 * indexed pages are the operator's, not this service's: they are sandboxed (no scripts, no
 * access to this origin) and never sniffed into another type.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { KEPT_FILES_PATH } from '../providers/serp/local-index.js';
import type { KeptFiles } from '../providers/serp/types.js';

export function registerKeptFiles(app: FastifyInstance, files: KeptFiles | undefined): void {
  app.route<{ Params: { key: string; '*': string } }>({
    method: ['GET', 'HEAD'],
    url: `${KEPT_FILES_PATH}/:key/*`,
    handler: async (request, reply) => {
      const file = files?.keptFile(request.params.key, request.params['*']);
      if (!file) throw new ServiceError('not_found', 'no such document');
      return reply
        .header('content-type', file.type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', 'sandbox')
        .header('cache-control', 'no-cache')
        .send(file.content);
    },
  });
}
