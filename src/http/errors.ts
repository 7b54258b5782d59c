/**
 * Turns every failure into the one error body of the service:
 * `{success: false, error: {code, message, details?}, trace_id}`. Faults of ours become a generic
 * 500 whose details stay in the log under the trace id: never a stack or a path in a response.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, ServiceError } from '../errors.js';
import './caller.js';
import './failed-sign-ins.js';
import { drainRefusedBody } from './refused-body.js';

function fromFastify(error: FastifyError, bodyLimit: number): ServiceError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('unsupported_media_type', 'content-type: the body must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('payload_too_large', `body: must be at most ${bodyLimit} bytes`);
  }
  if (error.statusCode === 400 || error instanceof SyntaxError) {
    const rule = error instanceof SyntaxError ? `must be valid JSON (${error.message})` : error.message;
    return new ServiceError('bad_request', `body: ${rule}`, { details: [{ field: 'body', rule }] });
  }
  if (error.statusCode === 413)
    return new ServiceError('payload_too_large', `body: must be at most ${bodyLimit} bytes`);
  if (error.statusCode === 415) return new ServiceError('unsupported_media_type', error.message);
  return undefined;
}

export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  const { details, retryAfter, taskId, headers } = error.options;
  if (retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
  const body: Record<string, unknown> = {
    success: false,
    error: { code: error.code, message: error.message, ...(details ? { details } : {}) },
    trace_id: reply.request.id,
  };
  if (taskId) body.task_id = taskId;
  if (reply.request.caller) reply.request.caller.errorCode = error.code;
  reply.request.answeredCode = error.code;
  return reply.code(error.status).type('application/json').send(body);
}

const FRAMEWORK_RULES: Record<string, string> = {
  FST_ERR_BAD_URL: 'is not a valid URL path (a % escape that is not UTF-8)',
  FST_ERR_MAX_PARAM_LENGTH: 'has a segment longer than any name or id this service gives (100 characters)',
};

/**
 * The errors Fastify meets before a request has a route (`frameworkErrors`), in the one error body
 * rather than Fastify's own: a path whose % escapes are not UTF-8, a path segment over the router's
 * limit. No hook has run for them, so the trace id header is set here.
 */
export function frameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  reply.header('x-trace-id', request.id);
  const rule = FRAMEWORK_RULES[error.code] ?? (error.message || 'is not a path this service answers');
  return sendError(reply, badRequest([{ field: 'path', rule }]));
}

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof ServiceError ? error : fromFastify(error, bodyLimit);
    if (known?.options.internal) request.log.warn({ detail: known.options.internal }, known.message);
    if (known?.code === 'payload_too_large') {
      return drainRefusedBody(request.raw).then(() => sendError(reply, known));
    }
    if (known) return sendError(reply, known);
    request.log.error({ err: error }, 'unhandled fault');
    return sendError(
      reply,
      new ServiceError('api_error', `internal error; quote trace_id ${request.id} when reporting it`),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ServiceError('no_api', `no operation at ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}
