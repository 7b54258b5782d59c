/**
 * Channel health: every upstream channel is probed on a schedule with a cheap request of its
 * kind (never billed to a client), and what a probe or a routed call finds moves the channel:
 * a probe that finds its key refused or its account unable to pay (401, 402, 403, or the vendor's
 * code for a spent quota: upstream-errors.ts) disables it at once, since a probe carries nothing
 * of any client's; a routed call that finds the same (401, 402 or such a code, never a message's
 * words) disables it only once calls of `account_fault_tokens` different tokens did within the
 * window (fault-witnesses.ts), and otherwise has it probed soon, so that no one client can take a
 * channel from the others. A rate limit cools it for the upstream's Retry-After; server faults and
 * timeouts count, and `disable_after` failed probes in a row disable it. A disabled channel is
 * probed more often and comes back with the first probe that succeeds. A client's own bad
 * request, a content policy's refusal included, never counts. Whatever an upstream said reaches
 * a reason or an alert with the channel's credentials blanked out (providers/secrets.ts).
 *
 * The state lives in the database's `channel_states` (PostgreSQL when several nodes share it):
 * a change is announced in Redis where nodes share one (store/change-signal.ts) and every node
 * polls it every quarter second besides (channels.ts); each change is made by a conditional
 * write, so that only the node that made it raises the alert. An
 * operator's disable is another column: health never sets or clears it.
 */
import type { Logger } from 'pino';
import type { Db } from '../store/database.js';
import type { Config } from '../config/index.js';
import type { ChannelBoard, ChannelEntry } from '../providers/channel-board.js';
import type { Metrics } from '../observe/metrics.js';
import { retryAfterOf } from '../providers/upstream.js';
import type { Alerts } from './alerts.js';
import { credentialsOf, keySecrets, withoutSecrets } from '../providers/secrets.js';
import { blamesAccount, vendorErrorOf } from '../providers/upstream-errors.js';
import { FaultWitnesses } from './fault-witnesses.js';
import { probeRequestOf, type ProbedChannel } from './probe-requests.js';

export type ProbeOutcome =
  | { kind: 'ok'; detail: string }
  /** The channel's own account: key refused, no credit, no permission. */
  | { kind: 'account'; detail: string }
  | { kind: 'rate_limited'; detail: string; retryAfterSeconds?: number }
  /** Server faults, timeouts, the network. */
  | { kind: 'failure'; detail: string };

export interface ProbeResult {
  outcome: ProbeOutcome;
  latencyMs: number;
}

/**
 * What a probe's answer says about the channel. The probe is our own request, so a 403 refuses
 * the key too; the body is read for the vendor's code, never for its words.
 */
export function classify(status: number, body: string, keyed: boolean, retryAfter?: number): ProbeOutcome {
  const detail = `HTTP ${status}`;
  const refused = status === 403 || blamesAccount(status, vendorErrorOf(body).code);
  // Without a key, a refusal says the upstream is up, which is all that was asked.
  if (refused && keyed) return { kind: 'account', detail: `${detail} ${body.slice(0, 200)}`.trim() };
  if (status === 429) return { kind: 'rate_limited', detail, retryAfterSeconds: retryAfter };
  if (status >= 500) return { kind: 'failure', detail };
  return { kind: 'ok', detail };
}

/** Probes one upstream channel with its type's request (probe-requests.ts). */
export async function probeUpstream(channel: ProbedChannel, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  const request = probeRequestOf(channel);
  // The key, and what the probe derived from it (a signed token): none may reach the record.
  const secrets = [...keySecrets(channel.api_key), ...credentialsOf(request.init.headers)];
  let outcome: ProbeOutcome;
  try {
    const response = await fetch(request.url, {
      ...request.init,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    // Blanked before it is cut short: a token cut in two would no longer be recognised.
    const body = withoutSecrets(await response.text(), secrets).slice(0, 2000);
    const retryAfter = retryAfterOf(response.headers.get('retry-after') ?? undefined);
    const status = request.statusOf?.(response.status, body) ?? response.status;
    outcome = classify(status, body, request.keyed, retryAfter);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    outcome = { kind: 'failure', detail: cause ?? (error as Error).name };
  }
  outcome.detail = withoutSecrets(outcome.detail, secrets);
  return { outcome, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
}

/** A local engine's check (local-probes.ts, with the server's own view of what it serves). */
export type LocalProbe = (entry: ChannelEntry) => Promise<{ ok: boolean; detail: string }>;

/** Probes a local engine: a failed check counts like a failed upstream probe. */
export async function probeLocal(entry: ChannelEntry, check: LocalProbe): Promise<ProbeResult> {
  const started = performance.now();
  const found = await check(entry);
  return {
    outcome: found.ok ? { kind: 'ok', detail: found.detail } : { kind: 'failure', detail: found.detail },
    latencyMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

export class ChannelHealth {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Channels whose probe is under way: their next one is scheduled when it ends. */
  private readonly probing = new Set<string>();
  private readonly witnesses: FaultWitnesses;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly board: ChannelBoard,
    private readonly config: Config,
    private readonly alerts: Alerts,
    private readonly metrics: Metrics,
    private readonly localCheck: LocalProbe,
    private readonly log: Logger,
  ) {
    board.onCooled = (id, until) => {
      this.recheckSoon(id);
      this.shareCooling(id, until).catch((error: unknown) =>
        log.error({ err: error, channel: id }, 'channel cooldown not shared'),
      );
    };
    this.witnesses = new FaultWitnesses(
      config.health.account_fault_tokens,
      config.health.account_fault_window_seconds * 1000,
    );
    board.onAccountFault = (id, detail, token) => {
      const tokens = this.witnesses.saw(id, token);
      // Too few clients' calls to act on: a probe, which carries nothing of theirs, decides.
      if (tokens === undefined) return this.recheckSoon(id);
      board.autoDisable(id);
      this.autoDisable(id, `calls of ${tokens} tokens, last: ${detail}`).catch((error: unknown) =>
        log.error({ err: error, channel: id }, 'channel health not recorded'),
      );
    };
  }

  /** Probes every channel, upstreams and local engines, on its own schedule until `stop`. */
  start(): void {
    for (const entry of this.board.entries) this.schedule(entry, this.intervalOf(entry));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private intervalOf(entry: ChannelEntry): number {
    const own = this.config.channels.find((c) => c.name === entry.id)?.probe_interval_seconds;
    return (own ?? this.config.health.probe_interval_seconds) * 1000;
  }

  /** A channel that just went unwell is probed after `recheck_seconds`, not its usual interval. */
  private recheckSoon(id: string): void {
    const entry = this.board.entries.find((e) => e.id === id);
    if (!entry || this.probing.has(id)) return;
    this.schedule(entry, Math.min(this.intervalOf(entry), this.config.health.recheck_seconds * 1000));
  }

  private schedule(entry: ChannelEntry, ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(entry.id));
    const timer = setTimeout(() => {
      this.probing.add(entry.id);
      this.tick(entry).finally(() => {
        this.probing.delete(entry.id);
        const unwell = this.board.isCooling(entry.id) || this.board.isAutoDisabled(entry.id);
        const interval = this.intervalOf(entry);
        this.schedule(
          entry,
          unwell ? Math.min(interval, this.config.health.recheck_seconds * 1000) : interval,
        );
      });
    }, ms);
    timer.unref();
    this.timers.set(entry.id, timer);
  }

  private async tick(entry: ChannelEntry): Promise<void> {
    // An operator's disable holds until the operator enables the channel: no probe touches it.
    if (this.board.isDisabled(entry.id)) return this.metrics.channelProbed(entry.id, 'skipped');
    try {
      await this.probe(entry);
    } catch (error) {
      this.log.error({ err: error, channel: entry.id }, 'channel probe not recorded');
    }
  }

  /** Probes `entry` now and applies what the probe found; the admin API's probe uses it too. */
  async probe(entry: ChannelEntry): Promise<ProbeResult> {
    const result =
      entry.kind === 'local'
        ? await probeLocal(entry, this.localCheck)
        : await probeUpstream(
            { ...entry, api_key: this.config.channels.find((c) => c.name === entry.id)?.api_key },
            this.config.health.probe_timeout_ms,
          );
    await this.apply(entry.id, result);
    this.metrics.channelProbed(entry.id, result.outcome.kind);
    return result;
  }

  /**
   * Writes a cooldown where every node reads it (channels.ts), unless a longer one is there;
   * the node's own board already holds it.
   */
  private async shareCooling(id: string, until: number): Promise<void> {
    await this.ensureRow(id);
    const changed = await this.db
      .updateTable('channel_states')
      .set({ cooling_until: until, changed_at: Date.now() })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('cooling_until', 'is', null), eb('cooling_until', '<', until)]))
      .returning('id')
      .execute();
    if (changed.length > 0) this.board.announce();
  }

  private async ensureRow(id: string): Promise<void> {
    await this.db
      .insertInto('channel_states')
      .values({ id, disabled_at: null, disabled_by: null, changed_at: Date.now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  private async apply(id: string, { outcome, latencyMs }: ProbeResult): Promise<void> {
    await this.ensureRow(id);
    const ok = outcome.kind === 'ok' || outcome.kind === 'rate_limited';
    const row = await this.db
      .updateTable('channel_states')
      .set((eb) => ({
        probed_at: Date.now(),
        probe_ok: ok ? 1 : 0,
        probe_latency_ms: latencyMs,
        probe_detail: outcome.detail,
        probe_failures: outcome.kind === 'failure' ? eb('probe_failures', '+', 1) : 0,
      }))
      .where('id', '=', id)
      .returning(['probe_failures'])
      .executeTakeFirstOrThrow();
    if (outcome.kind === 'rate_limited') {
      const seconds = outcome.retryAfterSeconds ?? this.config.routing.cooldown_seconds;
      this.board.cooled(id, Date.now() + seconds * 1000);
      this.metrics.channelStateChanged('cooling');
    } else if (outcome.kind === 'account') await this.autoDisable(id, `probe: ${outcome.detail}`);
    else if (outcome.kind === 'failure' && Number(row.probe_failures) >= this.config.health.disable_after)
      await this.autoDisable(
        id,
        `probe: ${Number(row.probe_failures)} failed in a row, last ${outcome.detail}`,
      );
    else if (outcome.kind === 'ok') await this.reEnable(id);
  }

  /**
   * `text` with the channel's key and anything shaped like a token blanked: the last guard before
   * a reason is kept and alerted, whatever path it came by.
   */
  private masked(id: string, text: string): string {
    return withoutSecrets(text, keySecrets(this.config.channels.find((c) => c.name === id)?.api_key));
  }

  /** Disables `id` until a probe succeeds; alerts when this write is the one that disabled it. */
  async autoDisable(id: string, why: string): Promise<void> {
    const reason = this.masked(id, why);
    await this.ensureRow(id);
    const now = Date.now();
    const changed = await this.db
      .updateTable('channel_states')
      .set({ auto_disabled_at: now, auto_reason: reason, changed_at: now })
      .where('id', '=', id)
      .where('auto_disabled_at', 'is', null)
      .returning('id')
      .execute();
    this.board.setAutoDisabled([...this.autoDisabledNow(), id]);
    if (changed.length > 0) this.changed(id, 'ok', 'auto_disabled', reason);
    this.recheckSoon(id);
  }

  private async reEnable(id: string): Promise<void> {
    const now = Date.now();
    const changed = await this.db
      .updateTable('channel_states')
      .set({ auto_disabled_at: null, auto_reason: null, changed_at: now })
      .where('id', '=', id)
      .where('auto_disabled_at', 'is not', null)
      .returning('id')
      .execute();
    if (changed.length === 0) return;
    this.board.setAutoDisabled(this.autoDisabledNow().filter((other) => other !== id));
    this.changed(id, 'auto_disabled', 'ok', 'a probe succeeded');
  }

  private autoDisabledNow(): string[] {
    return this.board.entries.map((e) => e.id).filter((e) => this.board.isAutoDisabled(e));
  }

  /** An operator's disable or enable, alerted like health's own changes. */
  operatorSwitched(id: string, from: string, to: string, reason: string): void {
    this.alert(id, from, to, reason);
  }

  private changed(id: string, from: string, to: string, reason: string): void {
    this.board.announce();
    this.metrics.channelStateChanged(to);
    this.alert(id, from, to, reason);
  }

  private alert(id: string, from: string, to: string, reason: string): void {
    const entry = this.board.entries.find((e) => e.id === id);
    const shown = this.masked(id, reason);
    this.log.warn({ channel: id, from, to, reason: shown }, 'channel state changed');
    void this.alerts.raise('channel.state_changed', {
      channel: id,
      capability: entry?.capability ?? null,
      from,
      to,
      reason: shown,
    });
  }
}
