/**
 * Webhook delivery from the outbox. A task's terminal move writes its callback in the same
 * transaction, and an operator's alert is written when it is raised (watchers/alerts.ts); this
 * worker POSTs each, signed with Standard Webhooks v1 and the token's secret (an alert: the
 * operator's), until a 2xx answer (delivered), a 410 (gone: the receiver asks us to stop), or the
 * end of the backoff schedule (failed). Deliveries live in the database, so retries survive a
 * restart, and any node running deliveries sends what any node queued.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../store/database.js';
import { transactionsOf } from '../store/group-commit.js';
import type { Database, DeliveryTable, TaskTable } from '../store/tables.js';
import type { OutboundGuard } from '../net/guard.js';
import { Pump } from '../store/pump.js';
import { preparedInsert, preparedQuery } from '../store/prepared-query.js';
import { webhookSignature } from './webhook-signature.js';

type Delivery = Selectable<DeliveryTable>;
/** A claimed delivery with the signing secret of its token (undefined: an alert, or the token is gone). */
type Claimed = Delivery & { secret: string | undefined };

export interface NewDelivery {
  /** Also the `webhook-id` header. */
  id: string;
  kind: 'callback' | 'alert';
  /** The task and token of a callback; '' for an alert, which has neither. */
  taskId: string;
  tokenId: string;
  url: string;
  /** The JSON sent. */
  body: string;
}

/** Queues `delivery` in the outbox (in `db`, or a transaction), due at once. */
export async function queueDelivery(db: Kysely<Database>, delivery: NewDelivery, now: number): Promise<void> {
  await insertDelivery(db, {
    id: delivery.id,
    kind: delivery.kind,
    task_id: delivery.taskId,
    token_id: delivery.tokenId,
    url: delivery.url,
    body: delivery.body,
    state: 'pending',
    next_at: now,
    lease_until: null,
    last_status: null,
    last_error: null,
    created_at: now,
    delivered_at: null,
  });
}

const insertDelivery = preparedInsert('deliveries');

export interface CallbackOptions {
  timeoutMs: number;
  /** Seconds to wait before each retry; after the last, the delivery has failed. */
  backoffSeconds: number[];
  concurrency: number;
  pollMs: number;
  /** The operator's alerts: their signing secret, and who counts how each one ended. */
  alerts?: { secret?: string; settled: (event: string, outcome: 'delivered' | 'failed') => void };
}

interface Attempt {
  status: number | null;
  error: string | null;
}

/** ±20 %, so that many failed deliveries do not all come back at the same second. */
const jitter = () => 0.8 + Math.random() * 0.4;

export class CallbackDeliveries {
  private readonly pump: Pump<Claimed>;

  constructor(
    private readonly db: Db,
    private readonly guard: OutboundGuard,
    private readonly options: CallbackOptions,
    log: Logger,
  ) {
    this.pump = new Pump({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      claim: (max) => this.claim(max),
      work: (delivery) => this.deliver(delivery),
      key: (delivery) => delivery.id,
      onError: (error) => log.error({ err: error }, 'callback delivery fault'),
    });
  }

  /** Delivers until closed; deliveries a dead process was sending come back as their leases lapse. */
  start(): void {
    this.pump.start();
  }

  wake(): void {
    this.pump.wake();
  }

  close(): Promise<void> {
    return this.pump.close();
  }

  private async claim(max: number): Promise<Claimed[]> {
    const now = Date.now();
    // Written as a CASE, which no index can serve: as an OR of two ranges, SQLite read the whole
    // backlog through the (state, next_at) index to check it instead of finding the claimed ids.
    const isDue = sql<boolean>`case ${sql.ref('state')} when 'pending' then ${sql.ref('next_at')} <= ${now}
      when 'sending' then ${sql.ref('lease_until')} < ${now} else false end`;
    // Each half reads the (state, next_at) index on its own and stops at `max`: the pending half
    // in the index's order, so that a backlog of thousands is not sorted to claim a few. Lapsed
    // leases come first: they are older.
    const lapsed = this.db
      .selectFrom('deliveries')
      .select('id')
      .where('state', '=', 'sending')
      .where('lease_until', '<', now)
      .limit(max);
    const pending = this.db
      .selectFrom('deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_at', '<=', now)
      .orderBy('next_at')
      .limit(max);
    const due = this.db
      .selectFrom(
        this.db
          .selectFrom(lapsed.as('lapsed'))
          .select('id')
          .unionAll(this.db.selectFrom(pending.as('pending')).select('id'))
          .as('due'),
      )
      .select('id')
      .limit(max);
    // Checked again on the updated row, so that workers on several nodes never claim one delivery twice.
    const claimed = await this.db
      .updateTable('deliveries')
      .set({ state: 'sending', lease_until: now + this.options.timeoutMs * 2 })
      .where('id', 'in', due)
      .where(isDue)
      .returningAll()
      .execute();
    const secrets = await this.secretsOf(claimed.filter((d) => d.kind === 'callback').map((d) => d.token_id));
    return claimed.map((delivery) => ({ ...delivery, secret: secrets.get(delivery.token_id) }));
  }

  /** The signing secrets of `tokenIds`, in one read for a whole claim. */
  private async secretsOf(tokenIds: string[]): Promise<Map<string, string>> {
    if (tokenIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('tokens')
      .select(['id', 'webhook_secret'])
      .where('id', 'in', [...new Set(tokenIds)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.webhook_secret]));
  }

  private async send(delivery: Delivery, secret: string): Promise<Attempt> {
    const seconds = Math.floor(Date.now() / 1000);
    const signature = webhookSignature(secret, delivery.id, seconds, delivery.body);
    try {
      const response = await this.guard.request(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchyard-Webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(seconds),
          'webhook-signature': signature,
        },
        body: delivery.body,
        maxBytes: 64 * 1024,
        timeoutMs: this.options.timeoutMs,
      });
      return { status: response.status, error: null };
    } catch (error) {
      return { status: null, error: (error as Error).message };
    }
  }

  private async deliver(delivery: Claimed): Promise<void> {
    const alert = delivery.kind === 'alert';
    const secret = alert ? this.options.alerts?.secret : delivery.secret;
    const attempt: Attempt = secret
      ? await this.send(delivery, secret)
      : { status: null, error: alert ? 'no alerts.webhook_secret' : 'the token is gone' };
    const attempts = delivery.attempts + 1;
    const now = Date.now();
    const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    const retryIn = this.options.backoffSeconds[attempts - 1];
    const state = ok
      ? 'delivered'
      : attempt.status === 410
        ? 'gone'
        : retryIn === undefined || !secret
          ? 'failed'
          : 'pending';
    // Attempts ending together share a commit (group-commit.ts).
    await transactionsOf(this.db).run(async (trx) => {
      await recordAttempt(trx, {
        id: delivery.id,
        state,
        attempts,
        status: attempt.status,
        error: attempt.error,
        nextAt:
          state === 'pending' ? now + Math.round((retryIn as number) * 1000 * jitter()) : delivery.next_at,
        deliveredAt: ok ? now : null,
      });
      if (alert) return;
      await recordOnTask(trx, {
        id: delivery.task_id,
        state: state === 'pending' ? 'retrying' : state,
        attempts,
        status: attempt.status,
      });
    });
    if (alert && state !== 'pending') this.alertSettled(delivery.body, ok ? 'delivered' : 'failed');
  }

  private alertSettled(body: string, outcome: 'delivered' | 'failed'): void {
    const event = (JSON.parse(body) as { type: string }).type;
    this.options.alerts?.settled(event, outcome);
  }
}

type AttemptRecord = {
  id: string;
  state: Delivery['state'];
  attempts: number;
  status: number | null;
  error: string | null;
  nextAt: number;
  deliveredAt: number | null;
};

/** How an attempt ended, on a delivery this process holds the lease of (still `sending`). */
const recordAttempt = preparedQuery<AttemptRecord>((db, slot) =>
  db
    .updateTable('deliveries')
    .set({
      state: slot('state'),
      attempts: slot('attempts'),
      lease_until: null,
      last_status: slot('status'),
      last_error: slot('error'),
      next_at: slot('nextAt'),
      delivered_at: slot('deliveredAt'),
    })
    .where('id', '=', slot('id'))
    .where('state', '=', 'sending'),
);

type TaskCallback = {
  id: string;
  state: NonNullable<TaskTable['callback_state']>;
  attempts: number;
  status: number | null;
};

/** The callback's latest attempt on its task's record. */
const recordOnTask = preparedQuery<TaskCallback>((db, slot) =>
  db
    .updateTable('tasks')
    .set({
      callback_state: slot('state'),
      callback_attempts: slot('attempts'),
      callback_last_status: slot('status'),
    })
    .where('id', '=', slot('id')),
);
