/**
 * The task lifecycle in the database. Submission creates the task, reserves its credits and
 * writes its request's usage row in one transaction; every later move is a compare-and-swap on
 * the state, and the move into a terminal state settles or refunds the credits, sets the credits
 * the usage row keeps and queues the callback in the same transaction, so two workers can never
 * both finish, charge, refund or call back one task.
 */
import { hash } from 'node:crypto';
import { preparedInsert, preparedQuery } from '../store/prepared-query.js';
import { timeOrderedUuid } from '../store/time-ordered-uuid.js';
import { queueDelivery } from '../outbox/deliveries.js';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../store/database.js';
import { transactionsOf, type Transactions } from '../store/group-commit.js';
import type { Database, TaskTable } from '../store/tables.js';
import type { Operation } from '../contract/types.js';
import { ServiceError } from '../errors.js';
import { giveCredits, takeCredits, type Payer } from '../accounts/credits.js';
import type { Quote } from '../accounts/pricing.js';
import type { BudgetWindow, WindowKey } from '../accounts/budgets.js';
import { closeTaskUsage, openTaskUsage } from '../accounts/usage.js';
import { redactRequest } from './redact.js';
import {
  finalEnvelope,
  snapshot,
  storedData,
  storedResponse,
  type Progress,
  type TaskView,
} from './shapes.js';
import { isTerminal, LIVE, type TaskState } from './states.js';
import type { TaskEvent } from './events.js';

export type TaskRow = Selectable<TaskTable>;

export interface Submission {
  operation: Operation;
  payer: Payer;
  traceId: string;
  body: Record<string, unknown>;
  /** The price, fixed now: what is charged, and refunded once if the task fails. */
  quote: Quote;
  /** The payer's budget windows now, which the price counts in. */
  windows: readonly BudgetWindow[];
  deadlineMs: number;
  idempotencyKey?: string;
  /**
   * The request as its client named things, where that differs from `body` (an origin path's
   * model names): kept as the task's request, so that its record, answers and callback name the
   * model the client sent. `body` is what the engine runs.
   */
  asSent?: Record<string, unknown>;
}

export interface Outcome {
  data?: unknown;
  error?: { code: string; message: string };
}

/**
 * The data of a task whose client sent another name for its model (an origin path), naming the
 * model as the client did wherever the engine named ours.
 */
function namedAsSent(row: TaskRow, request: Record<string, unknown>, data: unknown): unknown {
  const sent = request.model;
  if (typeof sent !== 'string' || row.model === null || sent === row.model || data === undefined) return data;
  const ours = `"model":${JSON.stringify(row.model)}`;
  return JSON.parse(
    JSON.stringify(data)
      .split(ours)
      .join(`"model":${JSON.stringify(sent)}`),
  ) as unknown;
}

export function viewOf(row: TaskRow, data: unknown = undefined): TaskView {
  const stored = row.response === null ? undefined : (JSON.parse(row.response) as Record<string, unknown>);
  const request = JSON.parse(row.request) as Record<string, unknown>;
  return {
    id: row.id,
    traceId: row.trace_id,
    operation: row.operation,
    state: row.state as TaskState,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    request,
    data: namedAsSent(
      row,
      request,
      data ??
        (row.progress !== null ? JSON.parse(row.progress) : stored && storedData(row.operation, stored)),
    ),
    progress:
      row.progress_fraction === null
        ? null
        : { fraction: Number(row.progress_fraction), stage: row.progress_stage ?? '' },
    error: row.error === null ? null : (JSON.parse(row.error) as TaskView['error']),
  };
}

/** The event that tells watchers about the task's current state. */
export function eventOf(row: TaskRow): TaskEvent {
  const view = viewOf(row);
  const terminal = isTerminal(row.state);
  return {
    taskId: row.id,
    state: row.state,
    terminal,
    snapshot: snapshot(view),
    ...(terminal ? { final: finalEnvelope(view) } : {}),
  };
}

function hashOf(body: Record<string, unknown>): string {
  return hash('sha256', JSON.stringify(body), 'hex');
}

export class TaskStore {
  /** Submissions, starts and terminal moves of many tasks share commits (group-commit.ts). */
  private readonly transactions: Transactions;

  constructor(private readonly db: Db) {
    this.transactions = transactionsOf(db);
  }

  get(id: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Creates the task, or finds the one an earlier request with the same idempotency key made. */
  async submit(spec: Submission): Promise<{ task: TaskRow; created: boolean }> {
    try {
      return await this.trySubmit(spec);
    } catch (error) {
      // Two requests with one key racing: the unique index let one insert; the other reads it.
      if (spec.idempotencyKey === undefined || error instanceof ServiceError) throw error;
      return this.trySubmit(spec);
    }
  }

  private async trySubmit(spec: Submission): Promise<{ task: TaskRow; created: boolean }> {
    const requestHash = hashOf(spec.body);
    return this.transactions.run(async (trx) => {
      if (spec.idempotencyKey !== undefined) {
        const earlier = await trx
          .selectFrom('tasks')
          .selectAll()
          .where('token_id', '=', spec.payer.id)
          .where('idempotency_key', '=', spec.idempotencyKey)
          .executeTakeFirst();
        if (earlier) {
          if (earlier.request_hash !== requestHash || earlier.operation !== spec.operation.path) {
            throw new ServiceError(
              'bad_request',
              'idempotency-key: was already used with a different request',
              {
                details: [{ field: 'idempotency-key', rule: 'was already used with a different request' }],
              },
            );
          }
          return { task: earlier, created: false };
        }
      }
      const price = spec.quote.credits;
      const counted = await takeCredits(trx, spec.payer, spec.windows, price, spec.traceId);
      const now = Date.now();
      const body = spec.body;
      const row: TaskRow = {
        id: timeOrderedUuid(now),
        token_id: spec.payer.id,
        family: spec.operation.family,
        operation: spec.operation.path,
        trace_id: spec.traceId,
        request: JSON.stringify(redactRequest(spec.asSent ?? body)),
        response: null,
        state: 'queued',
        credits: price,
        // Only a limited balance or a budget has credits to settle or refund.
        credits_state: price > 0 && (!spec.payer.unlimited || counted.length > 0) ? 'reserved' : null,
        quote: JSON.stringify(spec.quote),
        budget_windows: counted.length > 0 ? JSON.stringify(counted) : null,
        callback_url: typeof body.callback_url === 'string' ? body.callback_url : null,
        callback_state: typeof body.callback_url === 'string' ? 'waiting' : null,
        callback_attempts: 0,
        runs: 0,
        callback_last_status: null,
        created_at: now,
        started_at: null,
        finished_at: null,
        updated_at: now,
        model: typeof body.model === 'string' ? body.model : null,
        action: typeof body.action === 'string' ? body.action : null,
        input: JSON.stringify(body),
        progress: null,
        progress_fraction: null,
        progress_stage: null,
        error: null,
        deadline_at: spec.deadlineMs,
        idempotency_key: spec.idempotencyKey ?? null,
        request_hash: requestHash,
      };
      await insertTask(trx, row);
      await openTaskUsage(trx, {
        tokenId: row.token_id,
        operation: row.operation,
        model: row.model,
        action: row.action,
        traceId: row.trace_id,
        quote: price,
      });
      return { task: row, created: true };
    });
  }

  /** queued → running (or running again after a worker died); undefined when already terminal. */
  async begin(id: string): Promise<TaskRow | undefined> {
    const now = Date.now();
    return this.transactions.run(async (trx) => (await startTask(trx, { id, now }))[0]);
  }

  /** Keeps the engine's latest progress data while the task runs. */
  async progress(id: string, data: unknown): Promise<TaskRow | undefined> {
    return this.db
      .updateTable('tasks')
      .set({ progress: JSON.stringify(data), updated_at: Date.now() })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Keeps how far the running task is. A report behind the kept one changes nothing (a worker
   * that took the task over starts again from 0), so progress never goes back.
   */
  async advance(id: string, progress: Progress): Promise<TaskRow | undefined> {
    return this.db
      .updateTable('tasks')
      .set({ progress_fraction: progress.fraction, progress_stage: progress.stage, updated_at: Date.now() })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where((eb) =>
        eb.or([eb('progress_fraction', 'is', null), eb('progress_fraction', '<=', progress.fraction)]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Moves a live task to `state`, once. The winner of the move settles or refunds the credits and
   * queues the callback; a loser (the task was already terminal) gets undefined and does nothing.
   */
  async finish(
    id: string,
    state: Exclude<TaskState, 'queued' | 'running'>,
    outcome: Outcome,
    /** More writes of the move, in its transaction (an operator's cancel: its audit). */
    within?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<TaskRow | undefined> {
    return this.transactions.run(async (trx) => {
      const [live] = await liveTask(trx, { id });
      if (!live) return undefined;
      const now = Date.now();
      const view = { ...viewOf(live, outcome.data), state, finishedAt: now, error: outcome.error ?? null };
      const succeeded = state === 'succeeded';
      const creditsState =
        live.credits_state === 'reserved' ? (succeeded ? 'settled' : 'refunded') : live.credits_state;
      const [finished] = await endTask(trx, {
        id,
        state,
        response: JSON.stringify(storedResponse(view)),
        error: outcome.error ? JSON.stringify(outcome.error) : null,
        now,
        creditsState,
        callbackState: live.callback_url ? 'pending' : null,
      });
      // Another worker finished it between the read and the move (it held the row first).
      if (!finished) return undefined;
      if (creditsState === 'refunded')
        await giveCredits(trx, await payerOfTask(trx, live), Number(live.credits), live.trace_id);
      await closeTaskUsage(
        trx,
        live.trace_id,
        succeeded ? Number(live.credits) : 0,
        succeeded ? null : (outcome.error?.code ?? state),
      );
      if (live.callback_url) await queueCallback(trx, finished, JSON.stringify(finalEnvelope(view)), now);
      await within?.(trx);
      return finished;
    });
  }

  /** The live tasks, for re-enqueueing after a restart. */
  async live(): Promise<{ id: string; family: string }[]> {
    return this.db.selectFrom('tasks').select(['id', 'family']).where('state', 'in', LIVE).execute();
  }
}

/** Whose balance and which budget windows a task's refund goes back to. */
async function payerOfTask(
  trx: Kysely<Database>,
  task: TaskRow,
): Promise<{ accountId: string; tokenId: string; windows: WindowKey[] }> {
  // A token never changes accounts: the one it has now is the one that paid.
  const token = await trx
    .selectFrom('tokens')
    .select('account_id')
    .where('id', '=', task.token_id)
    .executeTakeFirstOrThrow();
  const windows = task.budget_windows ? (JSON.parse(task.budget_windows) as WindowKey[]) : [];
  return { accountId: token.account_id, tokenId: task.token_id, windows };
}

// The statements of every task's life, compiled once (store/prepared-query.ts).
const insertTask = preparedInsert('tasks');

/** queued → running, or running again after a worker died. */
const startTask = preparedQuery<{ id: string; now: number }, TaskRow>((db, slot) =>
  db
    .updateTable('tasks')
    .set({
      state: 'running',
      started_at: sql`coalesce(started_at, ${slot('now')})`,
      updated_at: slot('now'),
      runs: sql`runs + 1`,
    })
    .where('id', '=', slot('id'))
    .where('state', 'in', LIVE)
    .returningAll(),
);

const liveTask = preparedQuery<{ id: string }, TaskRow>((db, slot) =>
  db.selectFrom('tasks').selectAll().where('id', '=', slot('id')).where('state', 'in', LIVE),
);

interface TaskEnd {
  id: string;
  state: TaskState;
  response: string;
  error: string | null;
  now: number;
  creditsState: TaskRow['credits_state'];
  callbackState: TaskRow['callback_state'];
}

/** The terminal move, made only while the task is live: the input and progress are let go. */
const endTask = preparedQuery<TaskEnd, TaskRow>((db, slot) =>
  db
    .updateTable('tasks')
    .set({
      state: slot('state'),
      response: slot('response'),
      error: slot('error'),
      finished_at: slot('now'),
      updated_at: slot('now'),
      input: null,
      progress: null,
      credits_state: slot('creditsState'),
      callback_state: slot('callbackState'),
    })
    .where('id', '=', slot('id'))
    .where('state', 'in', LIVE)
    .returningAll(),
);

/** Queues a delivery of `body` (the JSON sent) to the task's callback URL, in `trx`. */
export async function queueCallback(
  trx: Kysely<Database>,
  task: TaskRow,
  body: string,
  now: number,
): Promise<void> {
  await queueDelivery(
    trx,
    {
      id: `msg_${timeOrderedUuid()}`,
      kind: 'callback',
      taskId: task.id,
      tokenId: task.token_id,
      url: task.callback_url as string,
      body,
    },
    now,
  );
}
