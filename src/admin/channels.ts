/**
 * Channels as the operator steers them: every channel of every capability (local engines as
 * kind `local`), its state, last probe and last five minutes; disable, enable and probe. Which
 * channels are disabled lives in the database, and every node reads it again within a second of
 * a change, so a channel disabled on one node is skipped by all; health checks disable and enable
 * channels the same way (watchers/channel-health.ts). A channel's key is never shown.
 */
import type { Db } from '../store/database.js';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/tables.js';
import type { ChannelBoard, ChannelEntry } from '../providers/channel-board.js';
import { OPERATIONS } from '../contract/table.js';
import { audit, type Actor } from './audit.js';
import { add, BUCKET_SQL, percentile, type Histogram } from '../accounts/latency-histogram.js';
import { iso, notFound } from './values.js';
import type { Config } from '../config/index.js';
import {
  probeLocal,
  probeUpstream,
  type ChannelHealth,
  type LocalProbe,
} from '../watchers/channel-health.js';

export type ChannelState = 'ok' | 'cooling' | 'disabled' | 'auto_disabled';

export interface ChannelRow {
  id: string;
  capability: string;
  kind: string;
  type: string;
  base_url: string | null;
  priority: number;
  weight: number;
  models: string[];
  state: ChannelState;
  disabled_by: string | null;
  /** Why health checks disabled the channel, while `state` is `auto_disabled`. */
  auto_reason: string | null;
  last_probe: { at: string | null; ok: boolean; latency_ms: number | null; detail: string | null } | null;
  /** The last five minutes: calls, the share that succeeded, the median time. */
  calls: number;
  success_rate: number | null;
  p50_ms: number | null;
}

/** Whether a local engine can take work: the server checks its providers; the CLI cannot. */
const FIVE_MINUTES = 5 * 60_000;

export class ChannelAdmin {
  constructor(
    private readonly db: Db,
    private readonly board: ChannelBoard,
    private readonly localProbe: LocalProbe,
    private readonly config: Config,
    /** The server's health checks; the command line has none and only records its probe. */
    private readonly health?: ChannelHealth,
  ) {}

  private entry(id: string): ChannelEntry {
    const entry = this.board.entries.find((e) => e.id === id);
    if (!entry) throw notFound(`channel ${id}`);
    return entry;
  }

  /** The calls of the last five minutes of local engines, from the usage rows of every node. */
  private async localCalls(): Promise<
    Map<string, { calls: number; success_rate: number | null; p50_ms: number | null }>
  > {
    const rows = await this.db
      .selectFrom('usage')
      .select([
        'operation',
        sql<number>`${sql.raw(BUCKET_SQL)}`.as('bucket'),
        sql<number>`count(*)`.as('calls'),
        sql<number>`sum(case when status < 400 then 1 else 0 end)`.as('ok'),
      ])
      .where('created_at', '>', Date.now() - FIVE_MINUTES)
      .groupBy(['operation', sql`2`])
      .execute();
    const familyOf = new Map(OPERATIONS.map((o) => [o.path, o.family]));
    const byFamily = new Map<string, { calls: number; ok: number; latency: Histogram }>();
    for (const row of rows) {
      const family = familyOf.get(row.operation);
      if (!family) continue;
      const seen = byFamily.get(family) ?? { calls: 0, ok: 0, latency: {} };
      seen.calls += Number(row.calls);
      seen.ok += Number(row.ok);
      add(seen.latency, Number(row.bucket), Number(row.calls));
      byFamily.set(family, seen);
    }
    return new Map(
      [...byFamily].map(([family, seen]) => [
        family,
        { calls: seen.calls, success_rate: seen.ok / seen.calls, p50_ms: percentile(seen.latency, 0.5) },
      ]),
    );
  }

  async list(): Promise<ChannelRow[]> {
    const [states, local] = await Promise.all([
      this.db.selectFrom('channel_states').selectAll().execute(),
      this.localCalls(),
    ]);
    const stateOf = new Map(states.map((s) => [s.id, s]));
    return this.board.entries.map((entry) => {
      const saved = stateOf.get(entry.id);
      const disabled = saved?.disabled_at !== null && saved?.disabled_at !== undefined;
      const autoDisabled = saved?.auto_disabled_at !== null && saved?.auto_disabled_at !== undefined;
      // An engine without a router of its own is counted from the usage rows of its family.
      const recent =
        entry.type === 'engine'
          ? (local.get(entry.capability) ?? { calls: 0, success_rate: null, p50_ms: null })
          : this.board.recent(entry.id);
      return {
        ...entry,
        state: disabled
          ? 'disabled'
          : autoDisabled
            ? 'auto_disabled'
            : this.board.isCooling(entry.id)
              ? 'cooling'
              : 'ok',
        disabled_by: disabled ? (saved?.disabled_by ?? null) : null,
        auto_reason: autoDisabled ? (saved?.auto_reason ?? null) : null,
        last_probe:
          saved?.probed_at === null || saved?.probed_at === undefined
            ? null
            : {
                at: iso(saved.probed_at),
                ok: Number(saved.probe_ok) === 1,
                latency_ms: saved.probe_latency_ms === null ? null : Number(saved.probe_latency_ms),
                detail: saved.probe_detail,
              },
        ...recent,
      };
    });
  }

  async get(id: string): Promise<ChannelRow> {
    this.entry(id);
    return (await this.list()).find((row) => row.id === id) as ChannelRow;
  }

  private async save(
    id: string,
    set: StateChange,
    /** An operator's switch is written with its audit record, in one transaction. */
    record?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<void> {
    const now = Date.now();
    if (record) {
      await this.db.transaction().execute(async (trx) => {
        await saveState(trx, id, set, now);
        await record(trx);
      });
    } else await saveState(this.db, id, set, now);
  }

  async disable(id: string, actor: Actor): Promise<ChannelRow> {
    this.entry(id);
    const before = (await this.get(id)).state;
    await this.save(id, { disabled_at: Date.now(), disabled_by: actor.name }, (trx) =>
      audit(trx, actor, 'channel.disable', id),
    );
    return this.switched(id, before, `disabled by ${actor.name}`);
  }

  async enable(id: string, actor: Actor): Promise<ChannelRow> {
    this.entry(id);
    const before = (await this.get(id)).state;
    // The operator vouches for the channel: health's own disable ends with theirs.
    await this.save(
      id,
      { disabled_at: null, disabled_by: null, auto_disabled_at: null, auto_reason: null },
      (trx) => audit(trx, actor, 'channel.enable', id),
    );
    return this.switched(id, before, `enabled by ${actor.name}`);
  }

  /** After an operator's switch: every node told, and the operator's alert when the state moved. */
  private async switched(id: string, before: ChannelState, reason: string): Promise<ChannelRow> {
    await reloadStates(this.db, this.board);
    this.board.announce();
    const row = await this.get(id);
    if (row.state !== before) this.health?.operatorSwitched(id, before, row.state, reason);
    return row;
  }

  async probe(id: string, actor: Actor): Promise<ChannelRow> {
    const entry = this.entry(id);
    // The server's probe also moves the channel's state (watchers/channel-health.ts); the command line's
    // only records what it found.
    const probed = this.health
      ? await this.health.probe(entry)
      : entry.kind === 'local'
        ? await probeLocal(entry, this.localProbe)
        : await probeUpstream(
            { ...entry, api_key: this.config.channels.find((c) => c.name === id)?.api_key },
            this.config.health.probe_timeout_ms,
          );
    const ok = probed.outcome.kind === 'ok' || probed.outcome.kind === 'rate_limited';
    if (!this.health)
      await this.save(id, {
        probed_at: Date.now(),
        probe_ok: ok ? 1 : 0,
        probe_latency_ms: probed.latencyMs,
        probe_detail: probed.outcome.detail,
      });
    await audit(this.db, actor, 'channel.probe', id, { ok });
    return this.get(id);
  }
}

/**
 * Reads the channel states every node shares into the board: which channels are disabled, by an
 * operator or by their health, and which are cooling.
 */
export async function reloadStates(db: Db, board: ChannelBoard, now = Date.now()): Promise<void> {
  const rows = await db
    .selectFrom('channel_states')
    .select(['id', 'disabled_at', 'auto_disabled_at', 'cooling_until'])
    .where((eb) =>
      eb.or([
        eb('disabled_at', 'is not', null),
        eb('auto_disabled_at', 'is not', null),
        eb('cooling_until', '>', now),
      ]),
    )
    .execute();
  board.setDisabled(rows.filter((r) => r.disabled_at !== null).map((r) => r.id));
  board.setAutoDisabled(rows.filter((r) => r.auto_disabled_at !== null).map((r) => r.id));
  board.shareCooling(
    rows.filter((r) => r.cooling_until !== null).map((r) => [r.id, Number(r.cooling_until)] as const),
  );
}

/**
 * Reads the disabled channels now, then whenever any channel's state changed (polled every
 * `everyMs`), so that a switch made on any node holds on this one within that time.
 */
export async function watchChannelStates(
  db: Db,
  board: ChannelBoard,
  everyMs: number,
  onError: (error: unknown) => void,
): Promise<() => void> {
  const latest = async () =>
    Number(
      (
        await db
          .selectFrom('channel_states')
          .select(sql<number>`max(changed_at)`.as('latest'))
          .executeTakeFirst()
      )?.latest ?? 0,
    );
  let seen = await latest();
  await reloadStates(db, board);
  const timer = setInterval(() => {
    latest()
      .then(async (now) => {
        if (now === seen) return;
        seen = now;
        await reloadStates(db, board);
      }, onError)
      .catch(onError);
  }, everyMs).unref();
  return () => clearInterval(timer);
}

/** What operators and probes change of a channel's state. */
interface StateChange {
  disabled_at?: number | null;
  disabled_by?: string | null;
  auto_disabled_at?: null;
  auto_reason?: null;
  probed_at?: number;
  probe_ok?: number;
  probe_latency_ms?: number;
  probe_detail?: string;
}

/** A channel's switches and last probe, as operators and probes change them. */
async function saveState(db: Kysely<Database>, id: string, set: StateChange, now: number): Promise<void> {
  await db
    .insertInto('channel_states')
    .values({ id, disabled_at: null, disabled_by: null, ...set, changed_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...set, changed_at: now }))
    .execute();
}
