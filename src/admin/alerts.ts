/**
 * The operator's alerts: one signed POST per event to the configured webhook, the same way task
 * callbacks are sent (Standard Webhooks v1, the guard's outbound rules, the callbacks' retry
 * schedule), and each one counted in `/metrics`. An alert is raised by the one node whose write
 * made the change, so several nodes never send it twice. Alerts are kept in memory while they
 * are retried: a restart loses the ones not yet delivered, which the metrics still count.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { OutboundGuard } from '../net/guard.js';
import type { Metrics } from '../http/metrics.js';

export type AlertEvent = 'channel.state_changed' | 'token.low_balance';

export interface AlertOptions {
  url?: string;
  secret?: string;
  timeoutMs: number;
  /** Seconds to wait before each retry, as for callbacks. */
  backoffSeconds: number[];
}

export class Alerts {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly guard: OutboundGuard,
    private readonly metrics: Metrics,
    private readonly options: AlertOptions,
    private readonly log: Logger,
  ) {}

  /** Sends `data` as event `type`, retrying in the background; never throws. */
  raise(type: AlertEvent, data: Record<string, unknown>): void {
    const { url, secret } = this.options;
    if (url === undefined || secret === undefined) {
      this.metrics.alert(type, 'unsent');
      return;
    }
    const id = `alert_${randomUUID()}`;
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    void this.attempt(type, id, body, url, new Webhook(secret), 0);
  }

  private async attempt(
    type: AlertEvent,
    id: string,
    body: string,
    url: string,
    signer: Webhook,
    tries: number,
  ): Promise<void> {
    if (this.closed) return;
    const timestamp = new Date();
    let status: number | null = null;
    try {
      const response = await this.guard.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchyard-Webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signer.sign(id, timestamp, body),
        },
        body,
        maxBytes: 64 * 1024,
        timeoutMs: this.options.timeoutMs,
      });
      status = response.status;
    } catch (error) {
      this.log.warn({ err: error, alert: id }, 'alert not delivered');
    }
    if (status !== null && status >= 200 && status < 300) {
      this.metrics.alert(type, 'delivered');
      return;
    }
    const wait = this.options.backoffSeconds[tries];
    // 410: the receiver asks us to stop, as for callbacks.
    if (wait === undefined || status === 410) {
      this.metrics.alert(type, 'failed');
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(type, id, body, url, signer, tries + 1);
    }, wait * 1000);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
