/**
 * Prometheus metrics: request count and latency per operation and status, plus the process's
 * own. Labels use the route pattern, never the raw URL, so their number stays bounded.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'switchyard_http_requests_total',
    help: 'HTTP requests answered, by operation and status',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'switchyard_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by operation and status',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  private readonly channelStates = new Counter({
    name: 'switchyard_channel_state_changes_total',
    help: 'Channel state changes made by the health checks of this process, by new state',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  private readonly alerts = new Counter({
    name: 'switchyard_alerts_total',
    help: 'Operator alerts raised by this process, by event and delivery outcome',
    labelNames: ['event', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly probes = new Counter({
    name: 'switchyard_channel_probes_total',
    help: "Scheduled and operators' channel probes of this process, by channel and what each found",
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly balanceChecks = new Counter({
    name: 'switchyard_balance_checks_total',
    help: 'Low-balance checks this process completed',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'switchyard_' });
  }

  observe(operation: string, status: number, seconds: number): void {
    const labels = { operation, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  channelStateChanged(state: string): void {
    this.channelStates.inc({ state });
  }

  /**
   * An alert's outcome: `queued` for delivery when raised, then `delivered` or `failed` (after
   * every retry); or `unsent` (no webhook).
   */
  alert(event: string, outcome: 'queued' | 'delivered' | 'failed' | 'unsent'): void {
    this.alerts.inc({ event, outcome });
  }

  /**
   * A channel's probe: what it found (`ok`, `account`, `rate_limited`, `failure`), or `skipped`
   * when an operator's disable held the scheduled one back.
   */
  channelProbed(channel: string, outcome: string): void {
    this.probes.inc({ channel, outcome });
  }

  balancesChecked(): void {
    this.balanceChecks.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
