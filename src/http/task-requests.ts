/**
 * Submitting a generation and answering it the way the client asked: at once with the task id
 * (`callback_url` or `"async": true`), as an ndjson stream of snapshots (`accept:
 * application/x-ndjson`), or, by default, by waiting for the result up to
 * `limits.sync_wait_seconds` (then 504 with the task id; the task goes on).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isErrorCode, ServiceError } from '../errors.js';
import { OutboundRefused } from '../net/guard.js';
import { isTerminal } from '../tasks/states.js';
import type { Config } from '../config/index.js';
import type { OutboundGuard } from '../net/guard.js';
import type { Metering } from '../accounts/metering.js';
import type { Providers } from '../providers/index.js';
import type { Queue } from '../tasks/queue.js';
import type { TaskStore } from '../tasks/store.js';
import type { TaskWatch } from '../tasks/watch.js';
import type { Caller } from './caller.js';

/** What a task's request uses of the services. */
export interface TaskRequestServices {
  config: Config;
  guard: OutboundGuard;
  metering: Metering;
  providers: Providers;
  queue: Queue;
  taskStore: TaskStore;
  watch: TaskWatch;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
    const rule = 'must be 1 to 255 visible ASCII characters, sent once';
    throw new ServiceError('bad_request', `idempotency-key: ${rule}`, {
      details: [{ field: 'idempotency-key', rule }],
    });
  }
  return header;
}

/** Refuses at once a callback URL that can never be called (scheme, literal private address). */
function checkCallback(services: TaskRequestServices, url: unknown): void {
  if (typeof url !== 'string') return;
  try {
    services.guard.check(url);
  } catch (error) {
    if (!(error instanceof OutboundRefused)) throw error;
    throw new ServiceError('bad_request', `callback_url: ${error.message}`, {
      details: [{ field: 'callback_url', rule: error.message }],
    });
  }
}

function deadlineOf(services: TaskRequestServices, body: Record<string, unknown>): number {
  const seconds =
    typeof body.execution_expires_after === 'number'
      ? body.execution_expires_after
      : services.config.tasks.expires_seconds;
  return Date.now() + seconds * 1000;
}

export async function answerTask(
  services: TaskRequestServices,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<unknown> {
  const { operation, token } = caller;
  // Refused before anything is created or charged.
  services.providers.task(operation);
  const idempotencyKey = idempotencyKeyOf(request.headers['idempotency-key']);
  checkCallback(services, body.callback_url);
  const { quote, windows } = services.metering.quoteTask(token, operation.priceKey, body);
  const { task } = await services.taskStore.submit({
    operation,
    payer: token,
    traceId: request.id,
    body,
    quote,
    windows,
    deadlineMs: deadlineOf(services, body),
    idempotencyKey,
    ...(request.originModel ? { asSent: { ...body, model: request.originModel.theirs } } : {}),
  });
  caller.taskId = task.id;
  // A replayed request re-enqueues a live task too: enqueueing is idempotent, and it rescues a
  // task whose first enqueue was lost.
  if (!isTerminal(task.state)) await services.queue.enqueue(task.id, task.family);
  // The request's meter stays unopened: the row of the request that created the task was written with it,
  // and the task's end sets what it kept (accounts/usage.ts); a replay costs nothing.

  if (typeof body.callback_url === 'string' || body.async === true) {
    return { success: true, task_id: task.id, trace_id: task.trace_id };
  }
  if (caller.accept === 'application/x-ndjson') {
    return reply.type('application/x-ndjson').send(services.watch.stream(task));
  }
  const waitSeconds = services.config.limits.sync_wait_seconds;
  const event = await services.watch.terminal(task.id, waitSeconds * 1000);
  if (!event) {
    throw new ServiceError(
      'timeout',
      `the task did not finish within ${waitSeconds} s; it goes on: retrieve it by its task_id`,
      { taskId: task.id },
    );
  }
  if (event.state === 'succeeded') return event.final;
  const error = event.final?.error as { code: string; message: string };
  // An operator's cancellation is no fault of ours: the wait ends in a conflict, not a 500.
  const code = isErrorCode(error.code) ? error.code : error.code === 'cancelled' ? 'conflict' : 'api_error';
  throw new ServiceError(code, error.message, { taskId: task.id });
}
