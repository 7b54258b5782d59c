/**
 * Routes for every operation, registered by walking the operation table. Each request passes the
 * same gates in the same order: accept (406), token (401), permission (403), rate and concurrency
 * (429), body (415/413/400), credits (403), and only then reaches its capability.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Operation } from '../contract/types.js';
import { OPERATIONS } from '../contract/table.js';
import { validateRequest } from '../contract/validate.js';
import { mayCall, type Tokens } from '../accounts/tokens.js';
import { EventStream, LineStream } from '../providers/index.js';
import { StopSwitch } from '../providers/stop-signal.js';
import { NDJSON, SERVER_SENT_EVENTS, sendStream } from './event-stream.js';
import { badRequest, ServiceError } from '../errors.js';
import type { Limiter } from '../accounts/limiter.js';
import type { ChannelBoard } from '../providers/channel-board.js';
import type { TaskRecords } from '../tasks/records.js';
import { negotiate } from './accept.js';
import { answerRetrieval } from '../tasks/retrieval.js';
import { answerTask, type TaskRequestServices } from './task-requests.js';
import type { Caller } from './caller.js';

/** What the operations' routes use of the services. */
export interface OperationServices extends TaskRequestServices {
  tokens: Tokens;
  limiter: Limiter;
  board: ChannelBoard;
  tasks: TaskRecords;
}

export const OTHER_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function gate(services: OperationServices, operation: Operation) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const accept = negotiate(request.headers.accept, operation.accept);
    if (!accept) {
      throw new ServiceError(
        'not_acceptable',
        `accept: ${operation.path} answers ${operation.accept.join(' or ')}, not ${request.headers.accept}`,
      );
    }
    const token = await services.tokens.authenticate(request.headers.authorization);
    if (token.role !== 'client') {
      throw new ServiceError('forbidden', 'an admin token calls /admin/api/v1 only, not operations');
    }
    request.caller = { operation, token, accept };
    if (!mayCall(token, operation.path)) {
      throw new ServiceError('token_mismatched', `this token may not call ${operation.path}`);
    }
    if (token.ratePerSecond !== null) {
      const wait = await services.limiter.take(token.id, token.ratePerSecond);
      if (wait > 0) {
        throw new ServiceError(
          'too_many_requests',
          `rate limit of ${token.ratePerSecond} requests per second`,
          {
            retryAfter: wait,
          },
        );
      }
    }
    if (token.maxConcurrency !== null) {
      const release = await services.limiter.acquire(token.id, token.maxConcurrency);
      if (!release) {
        throw new ServiceError('too_many_requests', `at most ${token.maxConcurrency} requests at a time`, {
          retryAfter: 1,
        });
      }
      // 'close' fires whether the answer was sent or the client went away.
      reply.raw.once('close', release);
    }
  };
}

export async function validate(request: FastifyRequest) {
  const caller = request.caller as Caller;
  const { violations, body } = validateRequest(caller.operation, request.body);
  if (violations.length > 0) throw badRequest(violations);
  request.body = body;
}

export function handler(services: OperationServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.caller as Caller;
    const { operation, token } = caller;
    const body = request.body as Record<string, unknown>;
    const kind = operation.kindOf?.(body) ?? operation.kind;
    // Every channel of the family switched off by an operator: refused before anything is held.
    const refused =
      kind === 'retrieval' ? undefined : services.board.refusal(operation.family, operation.path);
    if (refused) throw refused;
    if (kind === 'task') return answerTask(services, request, reply, caller, body);
    const meter = await services.metering.open(token, operation.priceKey, body, request.id);
    caller.meter = meter;
    const stop = new StopSwitch();
    // A streamed answer's cost is known only at its end: its credits are held durably before its
    // first byte. Where the request says it will stream, the hold is written while the upstream
    // works towards its first event rather than after it; a refused hold stops the work.
    const securing = operation.streams?.(body, caller.accept) ? meter.secure() : undefined;
    securing?.catch(() => stop.stop());
    try {
      // The response closing before it was written means the client left.
      reply.raw.once('close', () => reply.raw.writableFinished || stop.stop());
      const answer =
        kind === 'retrieval'
          ? await answerRetrieval(services.tasks, token.id, operation.family, body)
          : await services.providers.sync(operation)({
              operation,
              body,
              token,
              traceId: request.id,
              accept: caller.accept,
              signal: stop,
            });
      if (answer instanceof LineStream) {
        await (securing ?? meter.secure());
        const lines = await answer.start();
        return sendStream(reply, lines, NDJSON, (ok) => meter.settleLines(ok));
      }
      if (answer instanceof EventStream) {
        await (securing ?? meter.secure());
        return sendStream(reply, answer.events, SERVER_SENT_EVENTS, (ok, clientLeft) =>
          meter.settleEvents(ok, answer.usage(), clientLeft),
        );
      }
      await securing;
      await meter.settle(answer);
      return answer;
    } catch (error) {
      stop.stop(); // a stream already started upstream (its hold refused): stop it
      // A refused hold is what the client hears, not the failure of the work it stopped.
      const refusal = await securing?.then(
        () => undefined,
        (refused: unknown) => refused,
      );
      await meter.refund();
      throw refusal ?? error;
    }
  };
}

export function registerOperations(app: FastifyInstance, services: OperationServices): void {
  app.decorateRequest('caller', null);
  for (const operation of OPERATIONS) {
    app.route({
      method: 'POST',
      url: operation.path,
      onRequest: gate(services, operation),
      preValidation: validate,
      handler: handler(services),
    });
    app.route({
      method: OTHER_METHODS,
      url: operation.path,
      handler: async () => {
        throw new ServiceError('method_not_allowed', `${operation.path} takes POST only`, {
          headers: { allow: 'POST' },
        });
      },
    });
  }
}
