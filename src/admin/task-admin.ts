/**
 * Tasks as the operator steers them: the list with state and progress, a callback sent again,
 * and cancellation. A cancelled task takes the same terminal move as any failure (tasks/store.ts):
 * `failed` with `error.code` `cancelled`, its credits refunded once, its callback queued, its
 * watchers told. An engine running it in this process is stopped; one on another node runs to
 * its end, and finds the task ended.
 */
import type { Db } from '../store/database.js';
import { ServiceError } from '../errors.js';
import { queueCallback, viewOf, type TaskRow, type TaskStore } from '../tasks/store.js';
import { finalEnvelope } from '../tasks/shapes.js';
import { redactUrl } from '../tasks/redact.js';
import { isTerminal, type TaskState } from '../tasks/states.js';
import type { Queue } from '../tasks/queue.js';
import { audit, type Actor } from './audit.js';
import { priceKeyOf } from './request-log.js';
import { iso, notFound, pageOf, type Page } from './values.js';
import { pageByCreation } from './keyset-page.js';

export interface TaskAdminRow {
  id: string;
  trace_id: string;
  token: string;
  family: string;
  operation: string;
  model: string | null;
  action: string | null;
  state: string;
  progress: { fraction: number; stage: string } | null;
  credits: number;
  /** The price fixed at submission and how it was reckoned; what is charged, or refunded once. */
  quote: { credits: number; basis: string } | null;
  created_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  error: { code: string; message: string } | null;
  callback: { url: string; state: string | null; attempts: number; last_status: number | null } | null;
}

/** What a cancellation needs of the server: the terminal move, the job, the watchers, delivery. */
export interface TaskControls {
  store: TaskStore;
  queue: Queue;
  /** Tells the task's watchers (waits, streams) of its new state. */
  publish(task: TaskRow): void;
  /** Looks in the outbox now rather than at the next poll. */
  wakeCallbacks(): void;
  /** Stops the task's engine if it runs in this process. */
  abort(taskId: string): void;
}

export interface TaskQuery {
  state?: TaskState;
  family?: string;
  tokenId?: string;
  before?: string;
  limit: number;
}

function rowOf(task: TaskRow, token: string): TaskAdminRow {
  return {
    id: task.id,
    trace_id: task.trace_id,
    token,
    family: task.family,
    operation: priceKeyOf(task.operation),
    model: task.model,
    action: task.action,
    state: task.state,
    progress:
      task.progress_fraction === null
        ? null
        : { fraction: Number(task.progress_fraction), stage: task.progress_stage ?? '' },
    credits: Number(task.credits),
    quote: task.quote ? (JSON.parse(task.quote) as { credits: number; basis: string }) : null,
    created_at: iso(task.created_at),
    started_at: iso(task.started_at),
    finished_at: iso(task.finished_at),
    error: task.error === null ? null : (JSON.parse(task.error) as { code: string; message: string }),
    // Shown as the client's own view shows it: the credentials a callback URL carries stay hidden.
    callback: task.callback_url
      ? {
          url: redactUrl(task.callback_url),
          state: task.callback_state,
          attempts: Number(task.callback_attempts),
          last_status: task.callback_last_status,
        }
      : null,
  };
}

export class TaskAdmin {
  constructor(
    private readonly db: Db,
    private readonly names: (ids: string[]) => Promise<Map<string, string>>,
    private readonly controls?: TaskControls,
  ) {}

  async list(query: TaskQuery): Promise<Page<TaskAdminRow>> {
    let select = pageByCreation(this.db.selectFrom('tasks').selectAll(), query);
    if (query.state) select = select.where('state', '=', query.state);
    if (query.family) select = select.where('family', '=', query.family);
    if (query.tokenId) select = select.where('token_id', '=', query.tokenId);
    const rows = await select.execute();
    const named = await this.names([...new Set(rows.map((r) => r.token_id))]);
    return pageOf(
      rows,
      query.limit,
      (row) => rowOf(row, named.get(row.token_id) ?? row.token_id),
      (row) => [Number(row.created_at), row.id],
    );
  }

  private async task(id: string): Promise<TaskRow> {
    const row = await this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`task ${id}`);
    return row;
  }

  /** One task, with the request as sent (secrets removed) and, once ended, its final envelope. */
  async get(id: string): Promise<TaskAdminRow & { request: unknown; response: unknown }> {
    const row = await this.task(id);
    const named = await this.names([row.token_id]);
    return {
      ...rowOf(row, named.get(row.token_id) ?? row.token_id),
      request: JSON.parse(row.request) as unknown,
      response: row.response === null ? null : (JSON.parse(row.response) as unknown),
    };
  }

  /** Queues the task's final envelope for its callback URL again, as a new delivery. */
  async redeliver(id: string, actor: Actor): Promise<TaskAdminRow> {
    const task = await this.task(id);
    if (!task.callback_url) throw new ServiceError('conflict', `the task ${id} asked for no callback`);
    if (!isTerminal(task.state))
      throw new ServiceError('conflict', `the task ${id} has not ended: its callback comes when it does`);
    const earlier = await this.db
      .selectFrom('deliveries')
      .select('body')
      .where('task_id', '=', id)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await queueCallback(trx, task, earlier?.body ?? JSON.stringify(finalEnvelope(viewOf(task))), now);
      await trx.updateTable('tasks').set({ callback_state: 'pending' }).where('id', '=', id).execute();
      await audit(trx, actor, 'task.redeliver', id);
    });
    this.controls?.wakeCallbacks();
    return this.get(id);
  }

  async cancel(id: string, actor: Actor): Promise<TaskAdminRow> {
    const controls = this.controls;
    if (!controls) throw new ServiceError('conflict', 'tasks are cancelled through a running server');
    const task = await this.task(id);
    if (isTerminal(task.state))
      throw new ServiceError('conflict', `the task ${id} has already ended (${task.state})`);
    const finished = await controls.store.finish(
      id,
      'failed',
      { error: { code: 'cancelled', message: `cancelled by ${actor.name}` } },
      (trx) => audit(trx, actor, 'task.cancel', id),
    );
    if (!finished) throw new ServiceError('conflict', `the task ${id} ended before it could be cancelled`);
    controls.abort(id);
    controls.publish(finished);
    if (finished.callback_state === 'pending') controls.wakeCallbacks();
    return this.get(id);
  }
}
