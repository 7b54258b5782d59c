/**
 * Routing a request to the channels that serve its model: the lowest priority first, channels of
 * equal priority in a weighted random order; each channel retried on 429, 5xx and network errors
 * with doubling backoff, then the next one; a channel that keeps failing is cooled down and
 * skipped for a while. A request the upstream refuses as bad (other 4xx, or a content policy's
 * refusal whatever its status) is not retried anywhere.
 */
import type { Family } from '../contract/types.js';
import { ServiceError } from '../errors.js';
import { unservedModel } from './unserved.js';
import type { ChannelBoard } from './channel-board.js';
import { pause, type StopSignal } from './stop-signal.js';
import { blamesAccount, blamesRequest } from './upstream-errors.js';
import { globToRegExp } from './model-globs.js';

export interface RoutedChannel {
  name: string;
  capability: string;
  models: string[];
  priority: number;
  weight: number;
}

/** Whose request a routed call serves: the client's token id, and the signal that stops it. */
export interface Caller {
  /** The token the request came with: a channel is disabled on what several clients' calls found. */
  token: string;
  signal: StopSignal;
}

export interface RoutingPolicy {
  retries: number;
  backoffMs: number;
  cooldownAfter: number;
  cooldownSeconds: number;
  /** Where channels are disabled by operators and their calls counted; none in unit tests. */
  board?: ChannelBoard;
}

/** A failure of one upstream call, classified for routing. */
export class UpstreamFailure extends Error {
  override name = 'UpstreamFailure';
  constructor(
    message: string,
    /** The upstream's HTTP status, absent for network errors and timeouts. */
    readonly status?: number,
    /** The upstream's Retry-After, in seconds, when it gave one. */
    readonly retryAfterSeconds?: number,
    /** The vendor's structured error code (upstream-errors.ts), when its answer had one. */
    readonly code?: string,
  ) {
    super(message);
  }

  /**
   * The channel's own account cannot pay or is not allowed: no retry helps until its operator
   * acts. Told by the status (401, 402) and the vendor's code alone, never by the message, which
   * may repeat what the client sent.
   */
  get accountFault(): boolean {
    return blamesAccount(this.status, this.code);
  }

  /** A content policy refused what the client sent: passed on, neither retried nor held against the channel. */
  get requestFault(): boolean {
    return blamesRequest(this.code);
  }

  /** Worth another try (here or elsewhere): rate limits, server faults, the network. */
  get retryable(): boolean {
    if (this.requestFault) return false;
    return this.status === undefined || this.status === 408 || this.status === 429 || this.status >= 500;
  }

  /**
   * The channel itself is wrong (key, permission, endpoint): try the next one, not this one again.
   * A 403 without a code that blames the account is one too, but never disables the channel.
   */
  get channelFault(): boolean {
    if (this.requestFault) return false;
    return this.status === 403 || this.status === 404 || this.accountFault;
  }
}

/** Models whose matching channels are kept at most; past it the memo starts afresh. */
const MATCHED_MODELS = 1000;

interface Health {
  failures: number;
  coolUntil: number;
}

export class ChannelRouter<C extends RoutedChannel> {
  private readonly patterns: Map<C, RegExp[]>;
  private readonly health = new Map<string, Health>();
  private readonly matched = new Map<string, C[][]>();

  constructor(
    private readonly channels: readonly C[],
    private readonly policy: RoutingPolicy,
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {
    this.patterns = new Map(channels.map((c) => [c, c.models.map(globToRegExp)]));
  }

  /** Whether any channel of `capability` exists at all (configured, whatever the model). */
  serves(capability: string): boolean {
    return this.channels.some((c) => c.capability === capability);
  }

  /** The channels to try for `model`, in order. Cooled-down ones go last rather than away. */
  candidates(capability: string, model: string): C[] {
    const board = this.policy.board;
    const tiers = this.tiersFor(capability, model);
    const now = this.now();
    const cool = (c: C) => (this.health.get(c.name)?.coolUntil ?? 0) > now;
    const ready: C[] = [];
    const cooling: C[] = [];
    for (const tier of tiers) {
      const open = tier.filter((c) => !board?.isDisabled(c.name) && !board?.isAutoDisabled(c.name));
      for (const channel of open.length > 1 ? this.weighted(open) : open)
        (cool(channel) ? cooling : ready).push(channel);
    }
    return cooling.length === 0 ? ready : [...ready, ...cooling];
  }

  /**
   * The channels whose patterns match `model`, grouped by priority, lowest first. Kept per model
   * (channels are fixed for the router's life), so that a request does not test every pattern
   * again; what changes at run time (disabled, cooling) is checked on each request.
   */
  private tiersFor(capability: string, model: string): C[][] {
    const key = `${capability}\u0000${model}`;
    let tiers = this.matched.get(key);
    if (tiers) return tiers;
    const byPriority = new Map<number, C[]>();
    for (const channel of this.channels) {
      if (channel.capability !== capability) continue;
      if (!(this.patterns.get(channel) ?? []).some((p) => p.test(model))) continue;
      byPriority.set(channel.priority, [...(byPriority.get(channel.priority) ?? []), channel]);
    }
    tiers = [...byPriority.keys()].sort((a, b) => a - b).map((p) => byPriority.get(p) as C[]);
    // Models are what clients send: a client sending endless new names must not grow this forever.
    if (this.matched.size >= MATCHED_MODELS) this.matched.clear();
    this.matched.set(key, tiers);
    return tiers;
  }

  /** A weighted random order: each pick is proportional to weight among those left. */
  private weighted(group: C[]): C[] {
    const left = [...group];
    const out: C[] = [];
    while (left.length > 0) {
      let roll = this.random() * left.reduce((sum, c) => sum + c.weight, 0);
      const index = left.findIndex((c) => (roll -= c.weight) < 0);
      out.push(...left.splice(index < 0 ? left.length - 1 : index, 1));
    }
    return out;
  }

  private succeeded(channel: C, ms: number): void {
    this.health.delete(channel.name);
    this.policy.board?.observe(channel.name, true, ms);
  }

  private failed(channel: C, ms: number, error: UpstreamFailure, token: string): void {
    this.policy.board?.observe(channel.name, false, ms);
    // The channel's account seems at fault: the board weighs it against other clients' calls.
    if (error.accountFault) this.policy.board?.accountFault(channel.name, error.message, token);
    const health = this.health.get(channel.name) ?? { failures: 0, coolUntil: 0 };
    health.failures += 1;
    // A rate limit says how long to wait: the channel cools for that long at once.
    const rateLimited = error.status === 429 && error.retryAfterSeconds !== undefined;
    if (rateLimited || health.failures >= this.policy.cooldownAfter) {
      health.coolUntil =
        this.now() + (rateLimited ? (error.retryAfterSeconds as number) : this.policy.cooldownSeconds) * 1000;
      health.failures = 0;
      this.policy.board?.cooled(channel.name, health.coolUntil);
    }
    this.health.set(channel.name, health);
  }

  /**
   * Runs `call` on the channels for `model` until one succeeds. 503 busy when no channel serves
   * the model; 502 upstream_error when all failed; a 4xx the upstream gave is passed on as 400.
   */
  async run<T>(
    capability: Family,
    model: string,
    { token, signal }: Caller,
    call: (channel: C) => Promise<T>,
  ): Promise<T> {
    const candidates = this.candidates(capability, model);
    if (candidates.length === 0) {
      const board = this.policy.board;
      if (this.channels.some((c) => c.capability === capability && board?.isDisabled(c.name)))
        throw new ServiceError(
          'busy',
          `every ${capability} channel serving ${model} is disabled by an operator`,
        );
      if (this.channels.some((c) => c.capability === capability && board?.isAutoDisabled(c.name)))
        throw new ServiceError(
          'busy',
          `every ${capability} channel serving ${model} is disabled until a health probe succeeds`,
        );
      throw unservedModel(capability, model);
    }
    const tried: string[] = [];
    for (const channel of candidates) {
      for (let attempt = 0; attempt <= this.policy.retries; attempt += 1) {
        if (signal.aborted) throw new ServiceError('upstream_error', 'the request was abandoned');
        const started = performance.now();
        try {
          const result = await call(channel);
          this.succeeded(channel, performance.now() - started);
          return result;
        } catch (error) {
          if (!(error instanceof UpstreamFailure)) throw error;
          // The client left: that says nothing about the channel's health.
          if (signal.aborted) throw new ServiceError('upstream_error', 'the request was abandoned');
          if (!error.retryable && !error.channelFault) {
            throw new ServiceError('bad_request', `upstream refused the request: ${error.message}`, {
              details: [{ field: 'body', rule: error.message }],
            });
          }
          this.failed(channel, performance.now() - started, error, token);
          tried.push(`${channel.name}: ${error.message}`);
          if (error.channelFault || (error.status === 429 && error.retryAfterSeconds !== undefined)) break;
          if (attempt < this.policy.retries) await pause(this.policy.backoffMs * 2 ** attempt, signal);
        }
      }
    }
    // What each upstream said stays in the log: it can name internal hosts and proxies.
    throw new ServiceError('upstream_error', `every channel for ${model} failed (${tried.length} tried)`, {
      internal: tried.join('; '),
    });
  }
}
