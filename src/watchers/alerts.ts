/**
 * The operator's alerts: one signed POST per event to the configured webhook, sent the way task
 * callbacks are — each alert is written to the same outbox (`deliveries`, kind `alert`) and the
 * delivery workers POST it with Standard Webhooks v1, the guard's outbound rules and the
 * callbacks' retry schedule (outbox/deliveries.ts). Being in the database, an alert outlives a
 * restart, and any node that delivers callbacks sends it. An alert is raised by the one node
 * whose write made the change, so several nodes never send it twice; each is counted in
 * `/metrics` (`queued` here, or `unsent` when no webhook is configured; `delivered` or `failed`
 * when its delivery ends).
 */
import { timeOrderedUuid } from '../store/time-ordered-uuid.js';
import type { Logger } from 'pino';
import type { Db } from '../store/database.js';
import type { Metrics } from '../observe/metrics.js';
import { queueDelivery } from '../outbox/deliveries.js';

export type AlertEvent = 'channel.state_changed' | 'account.low_balance' | 'budget.used_up';

export interface AlertOptions {
  url?: string;
  secret?: string;
}

export class Alerts {
  constructor(
    private readonly db: Db,
    private readonly metrics: Metrics,
    private readonly options: AlertOptions,
    /** Tells this node's delivery workers that something is due. */
    private readonly wake: () => void,
    private readonly log: Logger,
  ) {}

  /** Queues `data` as event `type` for delivery; never throws (a fault is logged). */
  async raise(type: AlertEvent, data: Record<string, unknown>): Promise<void> {
    const { url, secret } = this.options;
    if (url === undefined || secret === undefined) {
      this.metrics.alert(type, 'unsent');
      return;
    }
    const now = Date.now();
    try {
      const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
      await queueDelivery(
        this.db,
        { id: `alert_${timeOrderedUuid(now)}`, kind: 'alert', taskId: '', tokenId: '', url, body },
        now,
      );
      this.metrics.alert(type, 'queued');
      this.wake();
    } catch (error) {
      this.log.error({ err: error, event: type }, 'alert not queued');
    }
  }
}
