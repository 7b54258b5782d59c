/**
 * Every channel of the server as the operator steers it: the configured channels and the local
 * engines that serve a family with none (`local:<family>`, kind `local`). The board holds which
 * ones an operator disabled (read from the database by every node, admin/channels.ts), which
 * ones the routers cooled down, and each one's calls of the last five minutes. Routers skip a
 * disabled channel; a family whose every channel is disabled answers 503 before anything runs.
 */
import type { Config } from '../config/index.js';
import type { Family } from '../contract/types.js';
import { FAMILIES } from '../config/channels.js';
import { ServiceError } from '../errors.js';

export interface ChannelEntry {
  id: string;
  capability: Family;
  /** `local` for an engine in this process; otherwise the channel's type. */
  kind: string;
  type: string;
  base_url: string | null;
  priority: number;
  weight: number;
  models: string[];
}

const WINDOW_MS = 5 * 60_000;
/**
 * Calls kept per channel: a busy channel's rate and p50 are those of its latest calls within the
 * five minutes. A ring of typed arrays, so that recording a call (on every request) allocates
 * nothing and moves nothing.
 */
const SAMPLES = 4096;

class CallRing {
  private readonly at = new Float64Array(SAMPLES);
  private readonly ms = new Float32Array(SAMPLES);
  private readonly ok = new Uint8Array(SAMPLES);
  private next = 0;
  private size = 0;

  add(at: number, ok: boolean, ms: number): void {
    this.at[this.next] = at;
    this.ms[this.next] = ms;
    this.ok[this.next] = ok ? 1 : 0;
    this.next = (this.next + 1) % SAMPLES;
    this.size = Math.min(SAMPLES, this.size + 1);
  }

  /** The calls since `since`: how many succeeded, and their times. */
  since(since: number): { ok: number; times: number[] } {
    const times: number[] = [];
    let ok = 0;
    for (let i = 0; i < this.size; i += 1) {
      if (this.at[i]! <= since) continue;
      times.push(this.ms[i]!);
      ok += this.ok[i]!;
    }
    return { ok, times };
  }
}
/** How much longer a cooldown must grow before the other nodes are told again. */
const SHARE_STEP_MS = 1000;

const LOCAL_TYPES = new Set(['local-llm', 'local-index']);
/** Families whose engine runs here when no channel serves them (chat has no such engine). */
const LOCAL_ENGINES = FAMILIES.filter((f) => f !== 'chat' && f !== 'serp');

/** The channels of a configuration, local engines included, in the order a router sees them. */
export function channelEntries(config: Config): ChannelEntry[] {
  const entries: ChannelEntry[] = config.channels.map((c) => ({
    id: c.name,
    capability: c.capability,
    kind: LOCAL_TYPES.has(c.type) ? 'local' : c.type,
    type: c.type,
    base_url: c.base_url ?? null,
    priority: c.priority,
    weight: c.weight,
    models: c.models,
  }));
  const served = new Set(config.channels.map((c) => c.capability));
  // The search capability's implicit channel (providers/serp) carries this name.
  if (!served.has('serp'))
    entries.push({
      id: 'local-index',
      capability: 'serp',
      kind: 'local',
      type: 'local-index',
      base_url: null,
      priority: 0,
      weight: 1,
      models: ['*'],
    });
  for (const family of LOCAL_ENGINES)
    if (!served.has(family))
      entries.push({
        id: `local:${family}`,
        capability: family,
        kind: 'local',
        type: 'engine',
        base_url: null,
        priority: 0,
        weight: 1,
        models: ['*'],
      });
  return entries;
}

export class ChannelBoard {
  private disabled = new Set<string>();
  private autoDisabled = new Set<string>();
  /**
   * Told when a call of token `token` found a channel's own account at fault; health decides
   * whether enough clients' calls did to disable it (watchers/channel-health.ts).
   */
  onAccountFault: (id: string, detail: string, token: string) => void = () => undefined;
  /**
   * Told when this node cooled a channel, so that its health is checked soon and the cooldown
   * is shared with the other nodes (watchers/channel-health.ts).
   */
  onCooled: (id: string, until: number) => void = () => undefined;
  /** Called after this node saved a change of channel states, so that other nodes read it at once. */
  announce: () => void = () => undefined;
  private readonly calls = new Map<string, CallRing>();
  private readonly coolUntil = new Map<string, number>();

  constructor(readonly entries: readonly ChannelEntry[]) {}

  isDisabled(id: string): boolean {
    return this.disabled.has(id);
  }

  setDisabled(ids: Iterable<string>): void {
    this.disabled = new Set(ids);
  }

  /** Disabled by its health (a probe or call found it broken) until a probe succeeds. */
  isAutoDisabled(id: string): boolean {
    return this.autoDisabled.has(id);
  }

  setAutoDisabled(ids: Iterable<string>): void {
    this.autoDisabled = new Set(ids);
  }

  /** A call of token `token` found the channel's key refused or its quota spent. */
  accountFault(id: string, detail: string, token: string): void {
    if (this.autoDisabled.has(id)) return;
    this.onAccountFault(id, detail, token);
  }

  /** Disabled here at once, before the database says so: the calls in flight stop trying it. */
  autoDisable(id: string): void {
    this.autoDisabled.add(id);
  }

  /** A router's call to a channel, for its success rate and p50. */
  observe(id: string, ok: boolean, ms: number, now = Date.now()): void {
    let ring = this.calls.get(id);
    if (!ring) this.calls.set(id, (ring = new CallRing()));
    ring.add(now, ok, ms);
  }

  cooled(id: string, until: number, now = Date.now()): void {
    const before = this.coolUntil.get(id) ?? 0;
    this.coolUntil.set(id, until);
    // Calls that keep failing while it cools would otherwise each write the shared state and
    // make every node read it again: only a cooldown that starts, or grows by a second, is told.
    if (before <= now || until > before + SHARE_STEP_MS) this.onCooled(id, until);
  }

  /** Cooldowns that any node wrote (admin/channels.ts): the longer of theirs and this node's holds. */
  shareCooling(cooldowns: Iterable<readonly [string, number]>): void {
    for (const [id, until] of cooldowns)
      if (until > (this.coolUntil.get(id) ?? 0)) this.coolUntil.set(id, until);
  }

  isCooling(id: string, now = Date.now()): boolean {
    return (this.coolUntil.get(id) ?? 0) > now;
  }

  /** The calls of the last five minutes: how many, the share that succeeded, the median time. */
  recent(
    id: string,
    now = Date.now(),
  ): { calls: number; success_rate: number | null; p50_ms: number | null } {
    const { ok, times } = this.calls.get(id)?.since(now - WINDOW_MS) ?? { ok: 0, times: [] };
    if (times.length === 0) return { calls: 0, success_rate: null, p50_ms: null };
    times.sort((a, b) => a - b);
    return {
      calls: times.length,
      success_rate: ok / times.length,
      p50_ms: Math.round((times[Math.floor((times.length - 1) / 2)] as number) * 10) / 10,
    };
  }

  /**
   * 503 when every channel of `family` is disabled, by an operator or by its health (a local
   * engine whose tool is missing, an upstream whose key was refused); undefined while one can
   * serve it.
   */
  refusal(family: Family, path: string): ServiceError | undefined {
    const own = this.entries.filter((e) => e.capability === family);
    const out = (id: string) => this.disabled.has(id) || this.autoDisabled.has(id);
    if (own.length === 0 || own.some((e) => !out(e.id))) return undefined;
    const byOperator = own.filter((e) => this.disabled.has(e.id)).map((e) => e.id);
    const byHealth = own.filter((e) => !this.disabled.has(e.id)).map((e) => e.id);
    const why = [
      ...(byOperator.length > 0 ? [`disabled by an operator (${byOperator.join(', ')})`] : []),
      ...(byHealth.length > 0 ? [`disabled until a health probe succeeds (${byHealth.join(', ')})`] : []),
    ];
    return new ServiceError('busy', `every channel serving ${path} is ${why.join(' or ')}`);
  }
}
