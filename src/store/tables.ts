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
  /** Remaining credits, or null for unlimited. */
  credits: number | null;
  rate_per_second: number | null;
  max_concurrency: number | null;
  webhook_secret: string;
  created_at: number;
  revoked_at: number | null;
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
  callback_last_status: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface Database {
  tokens: TokenTable;
  usage: UsageTable;
  tasks: TaskTable;
}
