/**
 * One tool call, from its arguments to its result. A synchronous operation is one request to its
 * path. A task is submitted with `async` (one request, answered with its task id at once), then
 * watched the way a waiting HTTP request watches it: its progress reported to the client, its
 * final envelope the result. The client's cancellation cancels the task through the operator's
 * cancel path (failed `cancelled`, refunded once); a wait past `limits.mcp_wait_seconds` answers
 * the task as it stands, and the task goes on, for `get_task` to find.
 */
import type { FastifyInstance } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Token } from '../accounts/tokens.js';
import { mayCall } from '../accounts/tokens.js';
import { checkSchema } from '../contract/validate.js';
import { operationAt, retrievalPathOf } from '../contract/table.js';
import type { Operation } from '../contract/types.js';
import type { TaskEvent } from '../tasks/events.js';
import type { Admin } from '../admin/index.js';
import type { Blobs } from '../store/blobs.js';
import type { Config } from '../config/index.js';
import type { Db } from '../store/database.js';
import type { TaskEvents } from '../tasks/events.js';
import type { TaskStore } from '../tasks/store.js';
import type { TaskWatch } from '../tasks/watch.js';
import { dispatch } from './dispatch.js';
import { errorResult, successResult } from './results.js';
import { GetTaskInput, type Tool } from './tools.js';

/** What MCP tool calls use of the services, besides the server they send each call through. */
export interface McpServices {
  admin: Admin;
  blobs: Blobs;
  config: Config;
  db: Db;
  events: TaskEvents;
  taskStore: TaskStore;
  watch: TaskWatch;
}

export interface Progress {
  fraction: number;
  stage: string;
}

export interface CallScope {
  app: FastifyInstance;
  services: McpServices;
  token: Token;
  /** The caller's own Authorization header, sent on with every request the call makes. */
  authorization: string;
  /** Reports how far a task is, when the client asked for progress. */
  progress?: (progress: Progress) => Promise<void>;
  /** Aborted when the client cancels the call: a task it started is cancelled too. */
  cancelled: AbortSignal;
  /** Aborted when the client's connection is gone: the call stops watching, the task goes on. */
  gone: AbortSignal;
  /**
   * The call's own idempotency key for the task it submits (running-calls.ts callKeyOf): any
   * node can find the task by it to cancel it. None for a call without a session.
   */
  callKey?: string;
}

/** Whether the token may call the tool: its operation's path, or for `get_task` any retrieval. */
export function mayUse(token: Token, tool: Tool, operations: readonly Operation[]): boolean {
  if (tool.operation) return mayCall(token, tool.operation.path);
  return operations.some((o) => (o.kind === 'retrieval' || o.kindOf) && mayCall(token, o.path));
}

export async function callTool(
  scope: CallScope,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { operation } = tool;
  if (!operation) return getTask(scope, args);
  const task = operation.kind === 'task';
  const body = { ...args, ...tool.fixed, ...(task ? { async: true } : {}) };
  const key: Record<string, string> = task && scope.callKey ? { 'idempotency-key': scope.callKey } : {};
  const answer = await dispatch(scope.app, scope.authorization, operation.path, body, key);
  if (answer.status !== 200) return errorResult(answer.body);
  if (!task) return successResult(operation, answer.body, scope.services.blobs);
  return followTask(scope, operation, String(answer.body.task_id));
}

/**
 * `get_task`: the retrieval of the task's own family. Another token's task is as unknown as one
 * that does not exist, before its family's permission could tell them apart.
 */
async function getTask(scope: CallScope, args: Record<string, unknown>): Promise<CallToolResult> {
  const violations = checkSchema(GetTaskInput, args);
  if (violations.length > 0) {
    return errorResult({ success: false, error: { code: 'bad_request', details: violations } });
  }
  const id = args.task_id as string;
  const row = await scope.services.taskStore.get(id);
  const operation = row?.token_id === scope.token.id ? operationAt(row.operation) : undefined;
  if (!operation) {
    return errorResult({ success: false, error: { code: 'not_found', message: `no task ${id}` } });
  }
  const answer = await dispatch(scope.app, scope.authorization, retrievalPathOf(operation), {
    action: 'retrieve',
    id,
  });
  if (answer.status !== 200) return errorResult(answer.body);
  return successResult(operation, answer.body, scope.services.blobs);
}

async function followTask(scope: CallScope, operation: Operation, taskId: string): Promise<CallToolResult> {
  const { services } = scope;
  let reached = -1;
  const unsubscribe = services.events.subscribe(taskId, (event) => {
    const progress = event.snapshot.progress as Progress | undefined;
    // Progress notifications must go up; a new stage at the same fraction waits for the next step.
    if (!scope.progress || !progress || progress.fraction <= reached) return;
    reached = progress.fraction;
    scope.progress(progress).catch(() => undefined);
  });
  try {
    const ended = await firstOf(
      services.watch.terminal(taskId, services.config.limits.mcp_wait_seconds * 1000),
      scope.cancelled,
      scope.gone,
    );
    if (ended === 'cancelled') {
      await cancel(services, scope.token, taskId);
      return getTask(scope, { task_id: taskId });
    }
    if (ended === 'gone') return errorResult({ success: false, error: { code: 'cancelled' } });
    if (!ended) return stillRunning(scope, taskId);
    const final = ended.final ?? {};
    return final.success === true ? successResult(operation, final, services.blobs) : errorResult(final);
  } finally {
    unsubscribe();
  }
}

/** The terminal event (undefined past the wait), or which signal came first. */
function firstOf(
  terminal: Promise<TaskEvent | undefined>,
  cancelled: AbortSignal,
  gone: AbortSignal,
): Promise<TaskEvent | undefined | 'cancelled' | 'gone'> {
  if (cancelled.aborted) return Promise.resolve('cancelled');
  return new Promise((resolve, reject) => {
    cancelled.addEventListener('abort', () => resolve('cancelled'), { once: true });
    gone.addEventListener('abort', () => resolve('gone'), { once: true });
    terminal.then(resolve, reject);
  });
}

/** Cancels the task as an operator would; one that ended first stays as it ended. */
async function cancel(services: McpServices, token: Token, taskId: string): Promise<void> {
  try {
    await services.admin.tasks.cancel(taskId, { name: `${token.name} (MCP client)`, id: token.id });
  } catch (error) {
    if ((error as { code?: string }).code !== 'conflict') throw error;
  }
}

/**
 * A cancellation on whichever node it reaches: the task the call submitted, found by the call's
 * idempotency key, is cancelled; the node running the call sees it end and answers.
 */
export async function cancelCall(services: McpServices, token: Token, callKey: string): Promise<void> {
  const task = await services.db
    .selectFrom('tasks')
    .select('id')
    .where('token_id', '=', token.id)
    .where('idempotency_key', '=', callKey)
    .executeTakeFirst();
  if (task) await cancel(services, token, task.id);
}

/** A wait that ran out is no failure: the task as it stands, or where it cannot be read, its id. */
async function stillRunning(scope: CallScope, taskId: string): Promise<CallToolResult> {
  const current = await getTask(scope, { task_id: taskId });
  const waited = scope.services.config.limits.mcp_wait_seconds;
  const note = `The task ${taskId} did not finish within ${waited} s and goes on: call get_task with this task_id for its state and result.`;
  if (current.isError) {
    return { content: [{ type: 'text', text: note }], structuredContent: { success: true, task_id: taskId } };
  }
  return { ...current, content: [{ type: 'text', text: note }, ...current.content] };
}
