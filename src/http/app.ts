/**
 * The HTTP application: one Fastify instance with the operation routes, `/mcp`, `/files`, the
 * search index's kept files, health, metrics and OpenAPI. Every response carries `x-trace-id`; logs
 * carry the same id and never a token or a request body.
 */
import { timeOrderedUuid } from '../store/time-ordered-uuid.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { badRequest, type ServiceError } from '../errors.js';
import { frameworkError, registerErrorHandling } from './errors.js';
import { registerJsonBody } from './json-body.js';
import { registerOperations } from './operations.js';
import { registerOriginRoutes } from './origin-routes.js';
import { registerFiles } from './files.js';
import { registerKeptFiles } from './kept-files.js';
import { registerHealth } from './health.js';
import { openApiDocument, registerOpenApi } from './openapi.js';
import { VERSION } from '../version.js';
import { registerAdmin } from '../admin/routes.js';
import { registerAccount } from './account.js';
import { registerConsole } from './console.js';
import { registerMcp } from './mcp.js';
import { registerFailedSignIns } from './failed-sign-ins.js';

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    // Fastify's own request lines would carry headers; ours (onResponse) carry only what an
    // operator needs to find a request, never a token or a body.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'trace_id' }),
    genReqId: () => timeOrderedUuid(),
    bodyLimit: config.limits.body_bytes,
    // The client's address, scheme and host as a trusted proxy forwards them (request.ip,
    // .protocol, .host); nobody's forwarded headers are believed unless configured.
    trustProxy: config.trust_proxy,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
  });
  // Only JSON bodies: anything else is answered 415 rather than parsed as text.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBody(app);

  // Both hooks run for every request: callbacks, so that neither costs a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-trace-id', request.id);
    done(sentTwice(request.raw.rawHeaders, 'authorization'));
  });
  app.addHook('onResponse', (request, reply, done) => {
    const operation = request.routeOptions.url ?? 'unmatched';
    services.metrics.observe(operation, reply.statusCode, reply.elapsedTime / 1000);
    const caller = request.caller;
    request.log.info(
      {
        operation,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        token_id: caller?.token.id,
      },
      'answered',
    );
    if (!caller) return done();
    const body = (request.body ?? {}) as Record<string, unknown>;
    services.metering.record(
      {
        tokenId: caller.token.id,
        operation: caller.operation.path,
        model: typeof body.model === 'string' ? body.model : null,
        action: typeof body.action === 'string' ? body.action : null,
        status: reply.statusCode,
        latencyMs: reply.elapsedTime,
        traceId: request.id,
        errorCode: caller.errorCode ?? null,
        taskId: caller.taskId ?? null,
      },
      caller.meter,
    );
    done();
  });

  // Before any hook that looks a token up: an address refused for its failures is refused first.
  registerFailedSignIns(app, services.db, (error) => services.log.error({ err: error }, 'audit not written'));
  registerErrorHandling(app, config.limits.body_bytes);
  registerOperations(app, services);
  registerOriginRoutes(app, services);
  registerMcp(app, services);
  registerConsole(app, services.tokens, services.db, config.public_base_url);
  registerAdmin(app, services.tokens, services.admin);
  registerAccount(app, services);
  registerFiles(app, services.blobs);
  registerKeptFiles(app, services.providers.keptFiles);
  registerHealth(app, services);
  await registerOpenApi(app, openApiDocument(config.public_base_url, VERSION));
  return app;
}

/**
 * A 400 when `name` (lower case) comes more than once: Node keeps the first of two `Authorization`
 * headers and drops the other, so a request naming two tokens would act as the first, unsaid.
 */
function sentTwice(rawHeaders: string[], name: string): ServiceError | undefined {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i]!;
    if (header.length === name.length && header.toLowerCase() === name) seen += 1;
  }
  return seen < 2 ? undefined : badRequest([{ field: name, rule: 'must be sent once' }]);
}
