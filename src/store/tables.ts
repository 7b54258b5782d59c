/**
 * The database tables as Kysely sees them. Times are unix milliseconds; JSON members are text, so
 * the same tables serve SQLite and PostgreSQL.
 */
import type { Generated } from 'kysely';

export interface TokenTable {
  id: string;
  name: string;
  /** SHA-256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  /** JSON array of operation paths, or null for all. */
  operations: string | null;
  expires_at: number | null;
  /** The account whose balance the token spends. */
  account_id: string;
  /** The token's own budgets (JSON array of accounts/budgets.ts rules), or null for none. */
  budgets: string | null;
  rate_per_second: number | null;
  max_concurrency: number | null;
  webhook_secret: string;
  created_at: number;
  revoked_at: number | null;
  /** When the token last changed after its creation; nodes forget cached tokens when it moves. */
  changed_at?: number | null;
  /** `client` calls operations, `admin` calls `/admin/*` only. */
  role: Generated<'client' | 'admin' | 'viewer'>;
  /** When an operator disabled it; null while it may be used. Unlike a revocation, reversible. */
  disabled_at: number | null;
}

/** A customer: owns tokens and the balance they spend. */
export interface AccountTable {
  id: string;
  /** Unique. */
  name: string;
  /** Remaining credits, or null for unlimited. */
  credits: number | null;
  /** JSON array of accounts/budgets.ts rules, or null for none. */
  budgets: string | null;
  /** Under this balance the account raises a low-balance alert; null: the configured default. */
  low_balance: number | null;
  created_at: number;
}

/** Credits used in one calendar window of a budget (`owner` is `account:{id}` or `token:{id}`). */
export interface BudgetUseTable {
  owner: string;
  period: string;
  starts_at: number;
  used: number;
}

export interface UsageTable {
  id: string;
  token_id: string;
  operation: string;
  model: string | null;
  action: string | null;
  credits: number;
  status: number;
  latency_ms: number;
  trace_id: string;
  created_at: number;
  /** The `error.code` the request was answered with; null for a success. */
  error_code?: string | null;
  /** The task the request created. */
  task_id?: string | null;
  /** The price quoted for the task the request created. */
  quote?: number | null;
}

/**
 * One day of usage (UTC, `day` its first millisecond) per token, operation and model (`''` for
 * none), kept after the raw rows are pruned; `latency` is the histogram of accounts/latency-histogram.ts.
 */
export interface UsageDailyTable {
  day: number;
  token_id: string;
  operation: string;
  model: string;
  requests: number;
  succeeded: number;
  failed: number;
  credits: number;
  latency: string;
}

/** Named numbers the service keeps across restarts (how far usage is rolled up). */
export interface MarkerTable {
  name: string;
  value: number;
}

/** An admin action: who did what to which thing, when. */
export interface AuditTable {
  id: string;
  /** The admin token's name, or `cli` for the command line. */
  actor: string;
  /** The admin token's id; null for the command line, an unknown caller and older rows. */
  actor_id?: string | null;
  action: string;
  target: string | null;
  /** JSON: the action's parameters, never a secret. */
  detail: string | null;
  created_at: number;
}

/** A channel an operator disabled, and its last probe. */
export interface ChannelStateTable {
  id: string;
  disabled_at: number | null;
  disabled_by: string | null;
  probed_at: number | null;
  probe_ok: number | null;
  probe_latency_ms: number | null;
  probe_detail: string | null;
  auto_disabled_at: number | null;
  auto_reason: string | null;
  probe_failures: Generated<number>;
  /** Until when calls found it overloaded or failing (routers try it after the others). */
  cooling_until: number | null;
  changed_at: number;
}

/** A console session: hashes only, of its cookie's id and of the admin token behind it. */
export interface ConsoleSessionTable {
  id_hash: string;
  token_hash: string;
  expires_at: number;
}

/**
 * An alert raised and not to be raised again while its cause lasts: `low_balance:{account id}`,
 * removed once the balance rises again, or `used_up:{owner}:{period}:{window start}`.
 */
export interface AccountAlertTable {
  subject: string;
  alerted_at: number;
}

export interface TaskTable {
  id: string;
  token_id: string;
  family: string;
  operation: string;
  trace_id: string;
  /** The request as sent, secrets removed (JSON). */
  request: string;
  /** The final envelope (JSON), once terminal. */
  response: string | null;
  state: string;
  credits: number;
  callback_url: string | null;
  callback_state: string | null;
  callback_attempts: Generated<number>;
  /** How many times a worker began it: a task whose runs kept dying is failed (tasks/runner.ts). */
  runs: Generated<number>;
  callback_last_status: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number | null;
  model: string | null;
  action: string | null;
  /** The full validated body the job runs with; cleared once the task is terminal. */
  input: string | null;
  /** The latest partial data an engine reported (JSON). */
  progress: string | null;
  /** How far the task got, 0 to 1, never going back; kept once terminal. */
  progress_fraction: number | null;
  /** The work the task was doing at `progress_fraction` (`compose`, `render`, …). */
  progress_stage: string | null;
  /** `{code, message}` of a failed or expired task (JSON). */
  error: string | null;
  deadline_at: number | null;
  idempotency_key: string | null;
  /** SHA-256 of the body, to refuse an idempotency key reused with another request. */
  request_hash: string | null;
  /** reserved → settled | refunded, each move made once, with the terminal state. */
  credits_state: string | null;
  /** How `credits` was reckoned at submission (JSON, pricing.ts `Quote`). */
  quote?: string | null;
  /** The budget windows the price counted against (JSON keys), given back by its refund. */
  budget_windows?: string | null;
}

export interface DeliveryTable {
  /** Also the `webhook-id` header: stable across the retries of one delivery. */
  id: string;
  /** `callback` (a task's, to its token's URL) or `alert` (the operator's, no task nor token: ''). */
  kind: Generated<string>;
  task_id: string;
  token_id: string;
  url: string;
  body: string;
  /** pending | sending | delivered | gone | failed */
  state: string;
  attempts: Generated<number>;
  next_at: number;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

/**
 * Every audio the music engine produced or received, per token: what the client was given (the
 * Music item) and what the engine needs to work on it again (its stems, plan and analysis).
 */
export interface SongTable {
  /** The Music item's `id`, which clients pass back as `audio_id`. */
  id: string;
  token_id: string;
  task_id: string;
  /** The audio an extension continues, for concat. */
  parent_id: string | null;
  /** Seconds of the parent kept before this extension. */
  continue_at: number | null;
  duration: number;
  /** The Music item as returned (JSON). */
  item: string;
  /** The engine's view of the audio (JSON): stems, plan, tempo, key, voice. */
  sound: string;
  created_at: number;
}

/** A singer's voice to reuse (`persona_id`), learnt from one of the token's audios. */
export interface PersonaTable {
  id: string;
  token_id: string;
  name: string;
  description: string | null;
  audio_id: string;
  vox_audio_id: string | null;
  /** The voice's parameters (JSON). */
  voice: string;
  created_at: number;
}

/** Every video a token was given, with what a later extension needs to continue it. */
export interface VideoTable {
  /** The result item's `id`, which `/clip/videos` extend names as `video_id`. */
  id: string;
  token_id: string;
  task_id: string;
  /** The result item as returned (JSON). */
  item: string;
  /** What it was made from (JSON): last frame, prompt, the upstream's own video id. */
  source: string;
  created_at: number;
}

/**
 * The local verification source: one reference record per ID number. Nothing in it is readable
 * without the identity key: the row is found by a keyed hash of the number and holds the record
 * sealed with AES-256-GCM.
 */
export interface IdentityTable {
  /** HMAC-SHA256 of the ID number under the identity key, hex. */
  lookup: string;
  /** The record (name, number, portrait) sealed under the identity key, base64. */
  sealed: string;
  created_at: number;
  updated_at: number;
}

/** A token's keys for the `encryption` member of the identity operations, each version kept. */
export interface FieldKeyTable {
  token_id: string;
  version: number;
  /** The 32-byte key sealed under the identity key, base64. */
  sealed: string;
  created_at: number;
}

/** One change of a limited balance; the entries of an account sum to its balance. */
export interface LedgerTable {
  /** Sorts by time. */
  id: string;
  account_id: string;
  /** The token that spent, or '' for a change made to the account itself. */
  token_id: string;
  kind: 'opening' | 'topup' | 'charge' | 'refund' | 'adjustment' | 'redeem';
  /** Signed: a charge is negative. */
  delta: number;
  balance_after: number;
  note: string | null;
  /** The admin token that made the change, or `system`. */
  actor: string;
  trace_id: string | null;
  created_at: number;
}

/** The credits a synchronous request holds until it is answered. */
export interface HoldTable {
  trace_id: string;
  account_id: string;
  token_id: string;
  amount: number;
  created_at: number;
}

/** A batch of redemption codes, each worth `credits`, usable `uses_per_code` times. */
export interface CodeBatchTable {
  id: string;
  credits: number;
  count: number;
  uses_per_code: number;
  expires_at: number | null;
  note: string | null;
  /** The admin token (or `cli`) that made the batch. */
  created_by: string;
  created_at: number;
  /** Set when an admin disabled what is left of the batch. */
  disabled_at: number | null;
}

/** One redemption code, by the hash of its text (the text is shown once, at the batch's making). */
export interface CodeTable {
  code_hash: string;
  batch_id: string;
  uses_left: number;
}

export interface Database {
  ledger: LedgerTable;
  code_batches: CodeBatchTable;
  codes: CodeTable;
  holds: HoldTable;
  accounts: AccountTable;
  budget_use: BudgetUseTable;
  tokens: TokenTable;
  usage: UsageTable;
  usage_daily: UsageDailyTable;
  markers: MarkerTable;
  audit: AuditTable;
  channel_states: ChannelStateTable;
  console_sessions: ConsoleSessionTable;
  account_alerts: AccountAlertTable;
  tasks: TaskTable;
  deliveries: DeliveryTable;
  songs: SongTable;
  personas: PersonaTable;
  videos: VideoTable;
  identities: IdentityTable;
  field_keys: FieldKeyTable;
}
