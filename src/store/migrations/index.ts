/**
 * Schema migrations, in order, one file each. Each is written once and never edited after
 * release; a change is a new migration (a new file, listed here). Types are chosen to mean the
 * same on SQLite and PostgreSQL.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migration as m0001 } from './0001_tokens_usage_tasks.js';
import { migration as m0002 } from './0002_task_lifecycle.js';
import { migration as m0003 } from './0003_music_library.js';
import { migration as m0004 } from './0004_video_library.js';
import { migration as m0005 } from './0005_identity.js';
import { migration as m0006 } from './0006_task_progress.js';
import { migration as m0007 } from './0007_usage_per_trace.js';
import { migration as m0008 } from './0008_credit_ledger.js';
import { migration as m0009 } from './0009_token_changes.js';
import { migration as m0010 } from './0010_admin.js';
import { migration as m0011 } from './0011_channel_health.js';
import { migration as m0012 } from './0012_alert_outbox_shared_cooling.js';
import { migration as m0013 } from './0013_unique_live_token_names.js';
import { migration as m0014 } from './0014_tasks_count_runs.js';
import { migration as m0015 } from './0015_console_sessions.js';
import { migration as m0016 } from './0016_lean_holds.js';
import { migration as m0017 } from './0017_audit_actor_id.js';
import { migration as m0018 } from './0018_redemption_codes.js';
import { migration as m0019 } from './0019_accounts.js';

const migrations: Record<string, Migration> = {
  '0001_tokens_usage_tasks': m0001,
  '0002_task_lifecycle': m0002,
  '0003_music_library': m0003,
  '0004_video_library': m0004,
  '0005_identity': m0005,
  '0006_task_progress': m0006,
  '0007_usage_per_trace': m0007,
  '0008_credit_ledger': m0008,
  '0009_token_changes': m0009,
  '0010_admin': m0010,
  '0011_channel_health': m0011,
  '0012_alert_outbox_shared_cooling': m0012,
  '0013_unique_live_token_names': m0013,
  '0014_tasks_count_runs': m0014,
  '0015_console_sessions': m0015,
  '0016_lean_holds': m0016,
  '0017_audit_actor_id': m0017,
  '0018_redemption_codes': m0018,
  '0019_accounts': m0019,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date, or up to the migration named `upTo` (to build an older schema
 * and see a later migration carry its data over); fails with the name of the migration that broke.
 */
export async function migrate(db: Kysely<unknown>, upTo?: string): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await (upTo === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${(error as Error).message}`);
  }
}
