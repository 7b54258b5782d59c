/**
 * Schema migrations, in order. Each is written once and never edited after release; a change is
 * a new migration. Types are chosen to mean the same on SQLite and PostgreSQL.
 */
import { Migrator, SqliteAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** The embedded queue's job table, from 0002 until 0014 moved its jobs into memory. */
async function createJobTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['family', 'state', 'run_at']).execute();
}

const migrations: Record<string, Migration> = {
  '0001_tokens_usage_tasks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('operations', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('credits', 'bigint')
        .addColumn('rate_per_second', 'double precision')
        .addColumn('max_concurrency', 'integer')
        .addColumn('webhook_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createTable('usage')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('action', 'text')
        .addColumn('credits', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('latency_ms', 'double precision', (c) => c.notNull())
        .addColumn('trace_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('usage_token_time')
        .on('usage')
        .columns(['token_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('trace_id', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('response', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('callback_url', 'text')
        .addColumn('callback_state', 'text')
        .addColumn('callback_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('callback_last_status', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('tasks_token_family_time')
        .on('tasks')
        .columns(['token_id', 'family', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['tasks', 'usage', 'tokens']) await sql`drop table ${sql.table(table)}`.execute(db);
    },
  },
  '0002_task_lifecycle': {
    async up(db: Kysely<unknown>) {
      const columns: [string, 'text' | 'bigint'][] = [
        ['model', 'text'],
        ['action', 'text'],
        ['input', 'text'],
        ['progress', 'text'],
        ['error', 'text'],
        ['deadline_at', 'bigint'],
        ['updated_at', 'bigint'],
        ['idempotency_key', 'text'],
        ['request_hash', 'text'],
        ['credits_state', 'text'],
      ];
      for (const [name, type] of columns) await db.schema.alterTable('tasks').addColumn(name, type).execute();
      await db.schema
        .createIndex('tasks_idempotency')
        .on('tasks')
        .columns(['token_id', 'idempotency_key'])
        .unique()
        .execute();
      await createJobTable(db);
      await db.schema
        .createTable('deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema.createIndex('deliveries_due').on('deliveries').columns(['state', 'next_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['deliveries', 'jobs']) await sql`drop table ${sql.table(table)}`.execute(db);
      await db.schema.dropIndex('tasks_idempotency').execute();
    },
  },
  '0003_music_library': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('songs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text')
        .addColumn('continue_at', 'double precision')
        .addColumn('duration', 'double precision', (c) => c.notNull())
        .addColumn('item', 'text', (c) => c.notNull())
        .addColumn('sound', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('songs_token').on('songs').columns(['token_id', 'created_at']).execute();
      await db.schema
        .createTable('personas')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('audio_id', 'text', (c) => c.notNull())
        .addColumn('vox_audio_id', 'text')
        .addColumn('voice', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['personas', 'songs']) await sql`drop table ${sql.table(table)}`.execute(db);
    },
  },
  '0004_video_library': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('videos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('item', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table videos`.execute(db);
    },
  },
  '0005_identity': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('identities')
        .addColumn('lookup', 'text', (c) => c.primaryKey())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('field_keys')
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('field_keys_pk', ['token_id', 'version'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['field_keys', 'identities']) await sql`drop table ${sql.table(table)}`.execute(db);
    },
  },
  '0006_task_progress': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tasks').addColumn('progress_fraction', 'double precision').execute();
      await db.schema.alterTable('tasks').addColumn('progress_stage', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('tasks').dropColumn('progress_stage').execute();
      await db.schema.alterTable('tasks').dropColumn('progress_fraction').execute();
    },
  },
  // One usage row per request: a task's terminal move finds its request's row by trace id, and
  // the answer's record fills in that row rather than adding a second one.
  '0007_usage_per_trace': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('usage_trace').on('usage').column('trace_id').unique().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('usage_trace').execute();
    },
  },
  // Every change of a limited balance becomes an entry; a balance opens with what it held.
  // `holds` are the credits of synchronous requests still under way, refunded once each.
  '0008_credit_ledger': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('delta', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('trace_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_token').on('ledger').columns(['token_id', 'id']).execute();
      await db.schema
        .createTable('holds')
        .addColumn('trace_id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('holds_time').on('holds').column('created_at').execute();
      const now = Date.now();
      // The id sorts before every later entry (they start with the time in base 36).
      await sql`insert into ledger (id, token_id, kind, delta, balance_after, note, actor, trace_id, created_at)
        select ${'0'.repeat(9)} || id, id, 'opening', credits, credits, 'balance when the ledger began', 'system', null, ${now}
        from tokens where credits is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['holds', 'ledger']) await sql`drop table ${sql.table(table)}`.execute(db);
    },
  },
  // When a token last changed (revoked, its secret rotated, its limits edited): every node polls
  // the latest, and forgets the tokens it has cached when it moved.
  '0009_token_changes': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tokens').addColumn('changed_at', 'bigint').execute();
      await db.schema.createIndex('tokens_changed').on('tokens').column('changed_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('tokens_changed').execute();
      await db.schema.alterTable('tokens').dropColumn('changed_at').execute();
    },
  },
  // The operator's side: a token's role and whether it is disabled; what the request log needs
  // on each usage row (the error code, the task); daily usage rollups that outlive the raw rows;
  // the audit of admin actions; the channels an operator disabled and their last probe.
  '0010_admin': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tokens')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('client'))
        .execute();
      await db.schema.alterTable('tokens').addColumn('disabled_at', 'bigint').execute();
      await db.schema.alterTable('usage').addColumn('error_code', 'text').execute();
      await db.schema.alterTable('usage').addColumn('task_id', 'text').execute();
      // The request log pages newest first, overall and per token; retention prunes by time.
      await db.schema.createIndex('usage_token_id').on('usage').columns(['token_id', 'id']).execute();
      await db.schema.createIndex('usage_time').on('usage').column('created_at').execute();
      await db.schema.createIndex('tasks_time').on('tasks').columns(['created_at', 'id']).execute();
      await db.schema
        .createTable('usage_daily')
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('succeeded', 'bigint', (c) => c.notNull())
        .addColumn('failed', 'bigint', (c) => c.notNull())
        .addColumn('credits', 'bigint', (c) => c.notNull())
        .addColumn('latency', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'token_id', 'operation', 'model'])
        .execute();
      await db.schema
        .createTable('markers')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('audit')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('detail', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('channel_states')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('disabled_at', 'bigint')
        .addColumn('disabled_by', 'text')
        .addColumn('probed_at', 'bigint')
        .addColumn('probe_ok', 'integer')
        .addColumn('probe_latency_ms', 'double precision')
        .addColumn('probe_detail', 'text')
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['channel_states', 'audit', 'markers', 'usage_daily'])
        await sql`drop table ${sql.table(table)}`.execute(db);
      for (const index of ['tasks_time', 'usage_time', 'usage_token_id'])
        await db.schema.dropIndex(index).execute();
      for (const column of ['task_id', 'error_code'])
        await db.schema.alterTable('usage').dropColumn(column).execute();
      for (const column of ['disabled_at', 'role'])
        await db.schema.alterTable('tokens').dropColumn(column).execute();
    },
  },
  // Channel health: a channel disabled by its own failures (and why), until a probe succeeds;
  // its probes' consecutive failures, which disable it when they reach the configured count.
  // The tokens whose low balance the operator was alerted to, so that each fall alerts once.
  '0011_channel_health': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('channel_states').addColumn('auto_disabled_at', 'bigint').execute();
      await db.schema.alterTable('channel_states').addColumn('auto_reason', 'text').execute();
      await db.schema
        .alterTable('channel_states')
        .addColumn('probe_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('balance_alerts')
        .addColumn('token_id', 'text', (c) => c.primaryKey())
        .addColumn('alerted_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('balance_alerts').execute();
      for (const column of ['auto_disabled_at', 'auto_reason', 'probe_failures'])
        await db.schema.alterTable('channel_states').dropColumn(column).execute();
    },
  },
  // The operator's alerts go through the callbacks' outbox (`kind` tells them apart), so that a
  // restart loses none; a channel's cooldown is kept beside its other states, so that every node
  // holds it.
  '0012_alert_outbox_shared_cooling': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('deliveries')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('callback'))
        .execute();
      await db.schema.alterTable('channel_states').addColumn('cooling_until', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('deliveries').dropColumn('kind').execute();
      await db.schema.alterTable('channel_states').dropColumn('cooling_until').execute();
    },
  },
  // A live token's name is unique, by an index, so that two nodes creating one name at once
  // cannot both succeed. Live tokens that already share a name keep it on the oldest; the
  // others are renamed `{name}-{first 8 characters of their id}`, followed by `-2`, `-3`, …
  // where a live token already has that name (or another renamed one took it).
  '0013_unique_live_token_names': {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ id: string; name: string }>`
        select id, name from tokens where revoked_at is null order by created_at, id`.execute(db);
      const taken = new Set(rows.map((r) => r.name));
      const kept = new Set<string>();
      for (const { id, name } of rows) {
        if (!kept.has(name)) {
          kept.add(name);
          continue;
        }
        const base = `${name}-${id.slice(0, 8)}`;
        let renamed = base;
        for (let n = 2; taken.has(renamed); n += 1) renamed = `${base}-${n}`;
        taken.add(renamed);
        await sql`update tokens set name = ${renamed} where id = ${id}`.execute(db);
      }
      await db.schema
        .createIndex('tokens_live_name')
        .on('tokens')
        .column('name')
        .unique()
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('tokens_live_name').execute();
    },
  },
  // The embedded queue keeps its jobs in memory, the tasks table behind them: a task counts its
  // own runs, and the job table goes. A task live when this runs is queued again at start.
  '0014_tasks_count_runs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tasks')
        .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.dropTable('jobs').execute();
    },
    async down(db: Kysely<unknown>) {
      await createJobTable(db);
      await db.schema.alterTable('tasks').dropColumn('runs').execute();
    },
  },
  // Console sessions in the database, so that every node and a restarted one know them.
  '0015_console_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('console_sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('console_sessions').execute();
    },
  },
  // A hold is written and deleted by every credited request, and read only by its trace id: its
  // time index is gone (expiry reads the few open holds whole, once a minute), and on SQLite the
  // table is keyed by the trace id itself (WITHOUT ROWID), one B-tree instead of two.
  '0016_lean_holds': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('holds_time').execute();
      if (!onSqlite(db)) return;
      await createHolds(db, 'holds_keyed', true);
      await sql`insert into holds_keyed select trace_id, token_id, amount, created_at from holds`.execute(db);
      await db.schema.dropTable('holds').execute();
      await db.schema.alterTable('holds_keyed').renameTo('holds').execute();
    },
    async down(db: Kysely<unknown>) {
      if (onSqlite(db)) {
        await createHolds(db, 'holds_rowid', false);
        await sql`insert into holds_rowid select trace_id, token_id, amount, created_at from holds`.execute(
          db,
        );
        await db.schema.dropTable('holds').execute();
        await db.schema.alterTable('holds_rowid').renameTo('holds').execute();
      }
      await db.schema.createIndex('holds_time').on('holds').column('created_at').execute();
    },
  },
  // The audit names its actor by token id as well as name: names are reused after a revocation.
  '0017_audit_actor_id': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('audit').addColumn('actor_id', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('audit').dropColumn('actor_id').execute();
    },
  },
};

function onSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The holds table as 0008 made it, under `name`; `keyed`: WITHOUT ROWID (SQLite only). */
async function createHolds(db: Kysely<unknown>, name: string, keyed: boolean): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('trace_id', 'text', (c) => c.primaryKey())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull());
  if (keyed) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
}

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
