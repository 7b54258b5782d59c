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
 * The longest model name a usage row keeps, in characters. A client may send any string as its
 * model, refused or not (bodies go up to 10 MiB), and the name is part of the daily rollup's key,
 * whose index PostgreSQL caps at 2,704 bytes: every model this service or its channels name is
 * far shorter.
 */
export const MODEL_CHARS = 64;

/** The model as a usage row keeps it: control characters made spaces, cut to `MODEL_CHARS`. */
export function recordedModel(model: string | null): string | null {
  if (model === null) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = model.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= MODEL_CHARS ? clean : `${chars.slice(0, MODEL_CHARS - 1).join('')}…`;
}

/** The status a task's row holds until the answer to its request is recorded. */
const ACCEPTED = 202;

/** Writes the row of a request that created a task, in the submission's transaction. */
export async function openTaskUsage(
  trx: Kysely<Database>,
  entry: Omit<UsageRecord, 'credits' | 'status' | 'latencyMs'>,
): Promise<void> {
  await insertUsage(trx, rowOf({ ...entry, credits: 0, status: ACCEPTED, latencyMs: 0 }, Date.now()));
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
    model: recordedModel(entry.model),
    action: entry.action,
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
