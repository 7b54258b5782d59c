/**
 * Retention: usage rows (the request log) and ended tasks are kept `retention.days`; the ledger
 * and the audit are kept for ever. Usage is rolled up into usage_daily (per day, token,
 * operation and model, with a latency histogram) every few minutes, up to a minute ago, so that
 * grouped usage reads a few rows per day plus the last minutes of raw rows, and stays the same
 * once the raw rows are pruned. A rollup marker says up to when (`usage_rolled_through`).
 *
 * Usage rows change after they are written: a task's row gets its credits at the task's end,
 * up to `tasks.expires_seconds` later. So each rollup computes again, from the raw rows, every
 * day that such a change can still reach, and rows are never pruned from those days.
 */
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import { DAY_MS, dayOf, rawParts, ROLLED_THROUGH, rolledThrough, type Part } from '../accounts/usage-days.js';
import { TERMINAL } from '../tasks/states.js';

/** Rows deleted per statement, so that a prune never holds the write lock for long. */
const BATCH = 5000;
/** A usage row is written this long at most after its time (its batch, a loaded node). */
const SETTLE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Rolls usage up to a minute before `now`, computing again the days from `refreshDays` before
 * the last rollup; answers how many days it wrote. One transaction moves the marker and writes
 * the days, so a report (which reads the marker again after the rows) never counts a row
 * twice, and of two nodes rolling up at once one wins and the other changes nothing.
 */
export async function rollUp(db: Db, refreshDays: number, now = Date.now()): Promise<number> {
  const cut = now - SETTLE_MS;
  const through = await rolledThrough(db);
  let start: number;
  if (through === 0) {
    const first = await db
      .selectFrom('usage')
      .select(sql<number>`min(created_at)`.as('first'))
      .executeTakeFirst();
    if (first?.first === null || first?.first === undefined || Number(first.first) >= cut) return 0;
    start = dayOf(Number(first.first));
  } else {
    if (through >= cut) return 0;
    start = dayOf(through) - refreshDays * DAY_MS;
  }
  const days: number[] = [];
  for (let day = start; day <= dayOf(cut); day += DAY_MS) days.push(day);
  // An hour at a time, letting other work run between: SQLite answers a statement without
  // yielding, and a month of rows read at once held the server for seconds.
  const summed = new Map<string, Part>();
  for (let from = start; from < cut; from += HOUR_MS) {
    await rawParts(db, { from, to: Math.min(from + HOUR_MS, cut) }, summed);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const parts = [...summed.values()];
  const written = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('markers')
      .values({ name: ROLLED_THROUGH, value: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const moved = await trx
      .updateTable('markers')
      .set({ value: cut })
      .where('name', '=', ROLLED_THROUGH)
      .where('value', '=', through)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom('usage_daily').where('day', '>=', start).execute();
    for (let i = 0; i < parts.length; i += 500) {
      await trx
        .insertInto('usage_daily')
        .values(
          parts.slice(i, i + 500).map((p) => ({
            day: p.day,
            token_id: p.token_id,
            operation: p.operation,
            model: p.model,
            requests: p.requests,
            succeeded: p.succeeded,
            failed: p.failed,
            credits: p.credits,
            latency: JSON.stringify(p.latency),
          })),
        )
        .execute();
    }
    return true;
  });
  return written ? days.length : 0;
}

/**
 * Deletes what is older than `retentionDays`; answers how many usage rows and tasks went. Usage
 * rows go only from days rolled up for good: before the days the next rollup computes again.
 */
export async function prune(
  db: Db,
  retentionDays: number,
  refreshDays: number,
  now = Date.now(),
): Promise<{ usage: number; tasks: number }> {
  if (retentionDays <= 0) return { usage: 0, tasks: 0 };
  const through = await rolledThrough(db);
  const before = Math.min(now - retentionDays * DAY_MS, dayOf(through) - refreshDays * DAY_MS);
  let usage = 0;
  for (;;) {
    const ids = db.selectFrom('usage').select('id').where('created_at', '<', before).limit(BATCH);
    const deleted = Number(
      (await db.deleteFrom('usage').where('id', 'in', ids).executeTakeFirst()).numDeletedRows,
    );
    usage += deleted;
    if (deleted < BATCH) break;
  }
  const ended = now - retentionDays * DAY_MS;
  let tasks = 0;
  for (;;) {
    const ids = await db
      .selectFrom('tasks')
      .select('id')
      .where('state', 'in', TERMINAL)
      .where('finished_at', '<', ended)
      .limit(BATCH)
      .execute();
    if (ids.length === 0) break;
    const list = ids.map((r) => r.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('deliveries').where('task_id', 'in', list).execute();
      await trx.deleteFrom('tasks').where('id', 'in', list).execute();
    });
    tasks += list.length;
    if (list.length < BATCH) break;
  }
  // The operator's alerts belong to no task: they go by their own age, once no longer retried.
  await db
    .deleteFrom('deliveries')
    .where('kind', '=', 'alert')
    .where('state', 'not in', ['pending', 'sending'])
    .where('created_at', '<', ended)
    .execute();
  return { usage, tasks };
}

/** How often usage is rolled up, and so how many minutes of raw rows a report reads at most. */
const EVERY_MS = 5 * 60_000;

/** The days a task's end can still change: its longest life, and the day it began. */
export function refreshDaysOf(taskExpirySeconds: number): number {
  return Math.ceil((taskExpirySeconds * 1000) / DAY_MS) + 1;
}

/** Rolls up and prunes now and every five minutes, on the nodes that run workers; answers the stop. */
export function startRetention(
  db: Db,
  options: { retentionDays: number; taskExpirySeconds: number },
  onDone: (result: { days: number; usage: number; tasks: number }) => void,
  onError: (error: unknown) => void,
): () => void {
  const refreshDays = refreshDaysOf(options.taskExpirySeconds);
  const sweep = async () => {
    const days = await rollUp(db, refreshDays);
    const pruned = await prune(db, options.retentionDays, refreshDays);
    onDone({ days, ...pruned });
  };
  const run = () => void sweep().catch(onError);
  run();
  const timer = setInterval(run, EVERY_MS).unref();
  return () => clearInterval(timer);
}
