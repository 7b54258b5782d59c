/**
 * `/search/files/<key>/<path>`: the files the local search index keeps, which its results link
 * to. A file opens only under its folder's own key, which only a search gives out; it opens the
 * folder's other kept files too, as the relative links between its pages do, and nothing of
 * another folder. The path is looked up in the index, never on the disk, so `..` reaches nothing. The
 * indexed pages are the operator's, not this service's: they are sandboxed (no scripts, no
 * access to this origin) and never sniffed into another type. The key in the path is what opens
 * the folder's files, so a page sends no referrer to the sites it loads from or links to.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { KEPT_FILES_PATH } from '../providers/serp/local.js';
import type { KeptFiles } from '../providers/kept-files.js';

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
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(file.content);
    },
  });
}
