/**
 * Callback delivery from the outbox. A task's terminal move writes its delivery in the same
 * transaction; this worker POSTs it, signed with Standard Webhooks v1 and the token's secret,
 * until a 2xx answer (delivered), a 410 (gone: the receiver asks us to stop), or the end of the
 * backoff schedule (failed). Deliveries live in the database, so retries survive a restart.
 */
import { EventEmitter } from 'node:events';
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../store/database.js';
import type { DeliveryTable } from '../store/tables.js';
import type { OutboundGuard } from '../net/guard.js';

type Delivery = Selectable<DeliveryTable>;

export interface CallbackOptions {
  timeoutMs: number;
  /** Seconds to wait before each retry; after the last, the delivery has failed. */
  backoffSeconds: number[];
  concurrency: number;
  pollMs: number;
}

interface Attempt {
  status: number | null;
  error: string | null;
}

/** ±20 %, so that many failed deliveries do not all come back at the same second. */
const jitter = () => 0.8 + Math.random() * 0.4;

export class CallbackDeliveries {
  private readonly wakeups = new EventEmitter();
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly guard: OutboundGuard,
    private readonly options: CallbackOptions,
    private readonly log: Logger,
  ) {}

  /** Hands back deliveries a dead process was sending, then delivers until closed. */
  async start(): Promise<void> {
    await this.db
      .updateTable('deliveries')
      .set({ state: 'pending', lease_until: null })
      .where('state', '=', 'sending')
      .execute();
    this.running = this.loop();
  }

  wake(): void {
    this.wakeups.emit('wake');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await this.running;
  }

  private async claim(max: number): Promise<Delivery[]> {
    const now = Date.now();
    const due = this.db
      .selectFrom('deliveries')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('next_at')
      .limit(max);
    return this.db
      .updateTable('deliveries')
      .set({ state: 'sending', lease_until: now + this.options.timeoutMs * 2 })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  private async loop(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (!this.closed) {
      let wake!: () => void;
      const sleep = new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, this.options.pollMs).unref();
      });
      this.wakeups.once('wake', wake);
      const free = this.options.concurrency - inFlight.size;
      const batch = free > 0 ? await this.claim(free).catch((error: unknown) => this.failed(error)) : [];
      for (const delivery of batch) {
        const sending: Promise<void> = this.deliver(delivery)
          .catch((error: unknown) => void this.failed(error))
          .finally(() => {
            inFlight.delete(sending);
            this.wake();
          });
        inFlight.add(sending);
      }
      if (batch.length === 0 || inFlight.size >= this.options.concurrency) await sleep;
      this.wakeups.off('wake', wake);
    }
    await Promise.all(inFlight);
  }

  private failed(error: unknown): [] {
    this.log.error({ err: error }, 'callback delivery fault');
    return [];
  }

  private async secretOf(tokenId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('tokens')
      .select('webhook_secret')
      .where('id', '=', tokenId)
      .executeTakeFirst();
    return row?.webhook_secret;
  }

  private async send(delivery: Delivery, secret: string): Promise<Attempt> {
    const timestamp = new Date();
    const signature = new Webhook(secret).sign(delivery.id, timestamp, delivery.body);
    try {
      const response = await this.guard.request(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchyard-Webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
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

  private async deliver(delivery: Delivery): Promise<void> {
    const secret = await this.secretOf(delivery.token_id);
    const attempt: Attempt = secret
      ? await this.send(delivery, secret)
      : { status: null, error: 'the token is gone' };
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
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('deliveries')
        .set({
          state,
          attempts,
          lease_until: null,
          last_status: attempt.status,
          last_error: attempt.error,
          next_at: state === 'pending' ? now + (retryIn as number) * 1000 * jitter() : delivery.next_at,
          delivered_at: ok ? now : null,
        })
        .where('id', '=', delivery.id)
        .execute();
      await trx
        .updateTable('tasks')
        .set({
          callback_state: state === 'pending' ? 'retrying' : state,
          callback_attempts: attempts,
          callback_last_status: attempt.status,
        })
        .where('id', '=', delivery.task_id)
        .execute();
    });
  }
}
