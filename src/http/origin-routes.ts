/**
 * The origin's paths (compat/origin.ts), each an alias of one of our operations: the same gates,
 * permission, price and usage operation, the same handler. What differs is at the edges: the
 * request is read as the origin's clients write it (compat/origin-requests.ts), every answer
 * (JSON, server-sent events, ndjson) names models as the origin does and the model the client
 * sent as it sent it, `/qrart/generate` answers the origin's flat shape, and a synchronous wait
 * that runs out answers 200 with the task's current state instead of 504: the origin's SDKs
 * retry a 504, which would generate twice, and they poll a task id they are given.
 */
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { ORIGIN_PATHS, renameModels } from '../compat/origin.js';
import { ourRequest } from '../compat/origin-requests.js';
import { operationAt } from '../contract/table.js';
import { ServiceError } from '../errors.js';
import { answerRetrieval } from '../tasks/retrieval.js';
import type { Caller } from './caller.js';
import { gate, handler, OTHER_METHODS, validate, type OperationServices } from './operations.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The model as the client sent it on an origin path, with our name for it. */
    originModel?: { ours: string; theirs: string };
  }
}

type Json = Record<string, unknown>;

function translate(originPath: string) {
  return async (request: FastifyRequest) => {
    const { body, model } = ourRequest(originPath, request.body);
    request.body = body;
    if (model !== undefined) {
      request.originModel = { ours: (body as Json).model as string, theirs: model };
    }
    // A stream is written past Fastify's onSend (http/event-stream.ts): renamed frame by frame.
    request.streamText = (text) => renameModels(text, request.originModel);
  };
}

/** Our task states as the origin's clients read them: still going, or not. */
const PENDING_WORDS: Readonly<Record<string, string>> = { queued: 'pending', running: 'running' };

/** On a wait that ran out: the task's current state, for the client to poll; never a 504. */
function waitingAsTheOrigin(services: OperationServices, inner: RouteHandlerMethod): RouteHandlerMethod {
  return async function (this: FastifyInstance, request, reply) {
    try {
      return await inner.call(this, request, reply);
    } catch (error) {
      const caller = request.caller as Caller;
      const taskId =
        error instanceof ServiceError && error.code === 'timeout' ? error.options.taskId : undefined;
      if (taskId === undefined) throw error;
      const record = (await answerRetrieval(services.tasks, caller.token.id, caller.operation.family, {
        action: 'retrieve',
        id: taskId,
      })) as Json;
      // The request is left out: the origin's SDKs take any URL in an answer for the result.
      const { request: _request, response: _response, ...rest } = record;
      const state = String(record.state);
      return { success: true, task_id: taskId, ...rest, state: PENDING_WORDS[state] ?? state };
    }
  };
}

/** `/qrart/generate` answers flat: the image's members beside the task id. */
async function flatQr(_request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  const answer = payload as Json;
  const response = answer?.response as Json | undefined;
  if (typeof response?.image_url !== 'string') return payload;
  const { seed, image_url, image_width, image_height } = response;
  return { seed, task_id: answer.task_id ?? answer.id, image_url, image_width, image_height };
}

/** Renames models line by line, so that a stream's frames are rewritten whole. */
function renamingStream(source: Readable, sent: FastifyRequest['originModel']): Readable {
  let rest = '';
  const rename = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      done(null, lines.map((line) => `${renameModels(line, sent)}\n`).join(''));
    },
    flush(done) {
      done(null, rest && renameModels(rest, sent));
    },
  });
  source.on('error', (error) => rename.destroy(error));
  rename.on('close', () => source.destroy());
  return source.pipe(rename);
}

async function renameOnTheWayOut(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  if (typeof payload === 'string') return renameModels(payload, request.originModel);
  if (payload !== null && typeof (payload as Readable).pipe === 'function') {
    return renamingStream(payload as Readable, request.originModel);
  }
  return payload;
}

export function registerOriginRoutes(app: FastifyInstance, services: OperationServices): void {
  for (const [originPath, ourPath] of Object.entries(ORIGIN_PATHS)) {
    const operation = operationAt(ourPath);
    if (!operation) throw new Error(`${originPath} stands for ${ourPath}, which is no operation`);
    app.route({
      method: 'POST',
      url: originPath,
      onRequest: gate(services, operation),
      preValidation: [translate(originPath), validate],
      handler: waitingAsTheOrigin(services, handler(services)),
      ...(originPath === '/qrart/generate' ? { preSerialization: flatQr } : {}),
      onSend: renameOnTheWayOut,
    });
    app.route({
      method: OTHER_METHODS,
      url: originPath,
      handler: async () => {
        throw new ServiceError('method_not_allowed', `${originPath} takes POST only`, {
          headers: { allow: 'POST' },
        });
      },
    });
  }
}
