/**
 * Usage records: one per authenticated request, for billing reports and audits, whose `credits`
 * is what was finally kept. Records are queued and written in batches (one transaction per batch,
 * at most `flushMs` after the answer), so that a request does not pay for a database write of its
 * own; `flush` runs on shutdown.
 *
 * A request that creates a task does not know, when it is answered, what it will cost: the task
 * may still fail and be refunded, in this process or in a worker elsewhere. Its row is therefore
 * written with the task, in the submission's transaction, keeping 0 credits; the task's terminal
 * move sets what it kept, in that move's transaction; and the batched record of the answer only
 * fills in the row's status and latency (rows are one per trace id). Whichever comes first, the
 * row ends the same.
 *
 * On SQLite a batch goes through one prepared statement of better-sqlite3, run once per row in one
 * transaction: a multi-row INSERT built by Kysely costs more to build and prepare, each time, than
 * SQLite takes to write the rows.
 */
import type { Insertable, Kysely } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';
import { sqliteHandleOf, type Db } from '../store/database.js';
import type { Database, UsageTable } from '../store/tables.js';
import { preparedInsert, preparedQuery } from '../store/prepared-query.js';
import { recordId } from './record-id.js';

export interface UsageRecord {
  tokenId: string;
  operation: string;
  model: string | null;
  action: string | null;
  credits: number;
  status: number;
  latencyMs: number;
  traceId: string;
  /** The `error.code` of a failed request. */
  errorCode?: string | null;
  /** The task a request created. */
  taskId?: string | null;
}

const BATCH = 500;

/**
 * The longest name (model, action) a usage row keeps, in characters. A client may send any string
 * as either, refused or not (bodies go up to 10 MiB): the model is part of the daily rollup's key,
 * whose index PostgreSQL caps at 2,704 bytes, and up to 500 rows go in one statement, which rows
 * of megabytes would take past the 1 GB PostgreSQL takes in one message. Every model or action
 * the contract names is far shorter, and so kept as sent; channels route by patterns (`*`), so
 * what they serve bounds nothing.
 */
export const MODEL_CHARS = 64;

/**
 * A name as a usage row keeps it: printable, on one line and at most `MODEL_CHARS` long. Runs of
 * control and format characters (bidirectional overrides among them), broken surrogates and
 * white space become one space, so that a report shows what it holds; a longer name is cut, with
 * `…` saying so.
 */
export function recordedName(name: string | null): string | null {
  if (name === null) return null;
  const clean = name.replace(/[\p{Cc}\p{Cf}\p{Cs}\s]+/gu, ' ').trim();
  // Counted in code points, as the databases' substr counts when the rollup cuts again.
  if (clean.length <= MODEL_CHARS) return clean;
  const chars = [...clean];
  return chars.length <= MODEL_CHARS ? clean : `${chars.slice(0, MODEL_CHARS - 1).join('')}…`;
}

/** The status a task's row holds until the answer to its request is recorded. */
const ACCEPTED = 202;

/** Writes the row of a request that created a task, in the submission's transaction. */
export async function openTaskUsage(
  trx: Kysely<Database>,
  entry: Omit<UsageRecord, 'credits' | 'status' | 'latencyMs'> & { quote: number },
): Promise<void> {
  const { quote, ...record } = entry;
  await insertUsage(trx, {
    ...rowOf({ ...record, credits: 0, status: ACCEPTED, latencyMs: 0 }, Date.now()),
    quote,
  });
}

const insertUsage = preparedInsert('usage');

/**
 * Sets what a task finally kept on its request's row, in the task's terminal move, and the code
 * it failed with: a client that streamed the task or did not wait for it was answered 200, and
 * learnt of the failure from the stream's last line, a callback or a retrieval. An error code the
 * answer itself carried (a waited task) is the one the client saw, and stays.
 */
export async function closeTaskUsage(
  trx: Kysely<Database>,
  traceId: string,
  credits: number,
  errorCode: string | null,
): Promise<void> {
  await setUsageOutcome(trx, { credits, errorCode, traceId });
}

const setUsageOutcome = preparedQuery<{ credits: number; errorCode: string | null; traceId: string }>(
  (db, slot) =>
    db
      .updateTable('usage')
      .set((eb) => ({
        credits: slot('credits'),
        error_code: eb.fn.coalesce('error_code', eb.val(slot('errorCode'))),
      }))
      .where('trace_id', '=', slot('traceId')),
);

function rowOf(entry: UsageRecord, now: number): Insertable<UsageTable> {
  return {
    id: recordId(now),
    token_id: entry.tokenId,
    operation: entry.operation,
    model: recordedName(entry.model),
    action: recordedName(entry.action),
    credits: entry.credits,
    status: entry.status,
    latency_ms: entry.latencyMs,
    trace_id: entry.traceId,
    created_at: now,
    error_code: entry.errorCode ?? null,
    task_id: entry.taskId ?? null,
  };
}

type Row = Insertable<UsageTable>;

/**
 * A task's row exists already and its credits belong to the task: only the answer's are set. Its
 * error code is the answer's when the answer had one, else the task's, when the task ended first.
 */
const ANSWER_COLUMNS = ['status', 'latency_ms', 'task_id'] as const;
const ANSWER_SET = [
  ...ANSWER_COLUMNS.map((c) => `${c} = excluded.${c}`),
  'error_code = coalesce(excluded.error_code, usage.error_code)',
].join(', ');

function kyselyWriter(db: Db): (rows: Row[]) => Promise<void> {
  return async (rows) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      await db
        .insertInto('usage')
        .values(rows.slice(i, i + BATCH))
        .onConflict((oc) =>
          oc.column('trace_id').doUpdateSet((eb) => ({
            ...Object.fromEntries(ANSWER_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
            error_code: eb.fn.coalesce(eb.ref('excluded.error_code'), eb.ref('usage.error_code')),
          })),
        )
        .execute();
    }
  };
}

function sqliteWriter(db: Db, sqlite: SqliteDatabase.Database): (rows: Row[]) => Promise<void> {
  const columns = [
    'id',
    'token_id',
    'operation',
    'model',
    'action',
    'credits',
    'status',
    'latency_ms',
    'trace_id',
    'created_at',
    'error_code',
    'task_id',
  ] as const satisfies readonly (keyof Row)[];
  // Values bound by position, in the order of `columns`: binding by name looks each one up, a
  // good part of a row's cost.
  const insert = sqlite.prepare<unknown[]>(
    `insert into usage (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) ` +
      `on conflict (trace_id) do update set ${ANSWER_SET}`,
  );
  const write = sqlite.transaction((rows: Row[]) => {
    for (const r of rows) {
      insert.run(
        r.id,
        r.token_id,
        r.operation,
        r.model ?? null,
        r.action ?? null,
        r.credits,
        r.status,
        r.latency_ms,
        r.trace_id,
        r.created_at,
        r.error_code ?? null,
        r.task_id ?? null,
      );
    }
  });
  // The connection Kysely lends is the one connection: no Kysely transaction is open meanwhile.
  return (rows) => db.connection().execute(async () => write(rows));
}

export class Usage {
  private pending: Row[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly write: (rows: Row[]) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
    private readonly flushMs = 50,
  ) {
    const sqlite = sqliteHandleOf(db);
    this.write = sqlite ? sqliteWriter(db, sqlite) : kyselyWriter(db);
  }

  record(entry: UsageRecord): void {
    this.pending.push(rowOf(entry, Date.now()));
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Writes everything queued so far; batches are written one after another, in order. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(async () => {
      try {
        await this.write(batch);
      } catch (error) {
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async forToken(tokenId: string): Promise<UsageRecord[]> {
    await this.flush();
    const rows = await this.db
      .selectFrom('usage')
      .selectAll()
      .where('token_id', '=', tokenId)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({
      tokenId: r.token_id,
      operation: r.operation,
      model: r.model,
      action: r.action,
      credits: Number(r.credits),
      status: r.status,
      latencyMs: r.latency_ms,
      traceId: r.trace_id,
    }));
  }
}
